import {
  agentGraphTopologies,
  type GraphTopology,
  type ProposedSubQuestion,
  type TopologyEdge,
  type TopologyNode,
  TopologyNodeKind,
} from '@thinkingmap/agent-core';
import { StepContextSource } from '@thinkingmap/db/enums';
import { NotFoundError } from '../commands/domain-errors.ts';
import { assertMapAccess } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { DecisionSnapshotRef } from '../schema/snapshot-refs.ts';
import { type PathStep, type RunPath, runPath, type StepContextEntry, type StepReply } from './run-path.ts';

const GraphNodeKindEnum = builder.enumType(TopologyNodeKind, {
  name: 'GraphNodeKind',
  description: 'AGENT: the model decides; TOOL: plain code or a tool call; HUMAN: waits for the person; START, END.',
});

const GraphNodeRef = builder.objectRef<TopologyNode>('AgentGraphNode').implement({
  description: "A step of an agent graph; `id` is the step name its runs' AgentStep events carry.",
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.expose('kind', { type: GraphNodeKindEnum }),
    interrupt: t.exposeBoolean('interrupt', { description: 'Whether a run can pause here for the person.' }),
  }),
});

const GraphEdgeRef = builder.objectRef<TopologyEdge>('AgentGraphEdge').implement({
  description: 'An edge of an agent graph; a conditional edge carries the label of its branch.',
  fields: (t) => ({
    source: t.exposeID('source'),
    target: t.exposeID('target'),
    conditional: t.exposeBoolean('conditional'),
    label: t.exposeString('label', { nullable: true }),
  }),
});

const AgentGraphRef = builder.objectRef<GraphTopology>('AgentGraph').implement({
  description: 'The topology of an agent graph, read from the compiled LangGraph graph (never drawn by hand).',
  fields: (t) => ({
    name: t.exposeID('name', { description: 'The graph, as runs name it in `AgentRun.agent`.' }),
    nodes: t.field({ type: [GraphNodeRef], resolve: (graph) => graph.nodes }),
    edges: t.field({ type: [GraphEdgeRef], resolve: (graph) => graph.edges }),
    interruptPoints: t.exposeIDList('interruptPoints', {
      description: 'The steps where a run pauses for the person.',
    }),
  }),
});

/** Built once: the graphs do not change while the server runs. */
let topologies: Promise<GraphTopology[]> | undefined;

builder.queryField('agentGraphs', (t) =>
  t.field({
    type: [AgentGraphRef],
    description: "Every agent graph's topology: steps with their kind, edges, branch labels and interrupt points.",
    resolve: () => {
      topologies ??= agentGraphTopologies();
      return topologies;
    },
  }),
);

const StepContextSourceEnum = builder.enumType(StepContextSource, {
  name: 'StepContextSource',
  description: "CONTEXT_ITEM: one of the node's context items; MESSAGE: a message of its conversations.",
});

const StepContextRef = builder.objectRef<StepContextEntry>('RunStepContext').implement({
  description: 'Something the agent had in its context at a step (cut to a few hundred characters).',
  fields: (t) => ({
    source: t.expose('source', { type: StepContextSourceEnum }),
    title: t.exposeString('title', {
      description: "The context item's title, or the message's author role (USER, ASSISTANT, SYSTEM).",
    }),
    excerpt: t.exposeString('excerpt'),
  }),
});

const StepReplyRef = builder.objectRef<StepReply>('RunStepReply').implement({
  description: "The person's reply to the question a step asked.",
  fields: (t) => ({
    action: t.exposeString('action', {
      description: 'approve, reject, accept, revise, answer, confirm, correct, skip, stop, expired or other.',
    }),
    text: t.exposeString('text', {
      nullable: true,
      description: 'Their words (feedback, answer, correction, edited text), cut; null when the reply has none.',
    }),
    answeredAt: t.expose('answeredAt', { type: 'DateTime', nullable: true }),
  }),
});

const ProposedSubQuestionRef = builder.objectRef<ProposedSubQuestion>('RunProposedSubQuestion').implement({
  description: 'A sub-question a review step put to the person, as the agent proposed it.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'Its name inside the proposal (what `dependsOn` refers to).' }),
    question: t.exposeString('question'),
    goal: t.exposeString('goal'),
    dependsOn: t.exposeStringList('dependsOn', { description: 'Keys of sibling sub-questions it needs first.' }),
  }),
});

const PathStepRef = builder.objectRef<PathStep>('RunPathStep').implement({
  description:
    "One visit of a run to a graph step, with its state; `round` 2 or more is a loop's next round. The state is " +
    'derived from what the run stored (its events, decisions and questions), each text cut to a bound.',
  fields: (t) => ({
    step: t.exposeID('step', { description: 'The step (a node id of the graph in agentGraphs).' }),
    branch: t.exposeString('branch', {
      nullable: true,
      description:
        'The parallel branch this visit ran as (a divergent task’s key, `L1.T2`): the tasks of a level are ' +
        'visits of one step in one round, side by side. Null for a step that runs once at a time.',
    }),
    round: t.exposeInt('round'),
    enteredSeq: t.exposeInt('enteredSeq'),
    enteredAt: t.expose('enteredAt', { type: 'DateTime' }),
    outcome: t.exposeString('outcome', {
      nullable: true,
      description: 'done, failed or interrupted; null while it runs.',
    }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    context: t.field({
      type: [StepContextRef],
      description:
        "Agent steps of a node's run: the node's newest context items and messages when the run last read its " +
        'context before the step (at most 5 items and 4 messages, 240 characters each). Empty for other steps.',
      resolve: (step) => step.context,
    }),
    answer: t.exposeString('answer', {
      nullable: true,
      description: 'What the step wrote: the message it posted, else the text it streamed (at most 1,200 characters).',
    }),
    question: t.exposeString('question', { nullable: true, description: 'What the step asked the person.' }),
    reply: t.field({
      type: StepReplyRef,
      nullable: true,
      description: "The person's reply to that question; null while it waits or when nothing was asked.",
      resolve: (step) => step.reply,
    }),
    proposal: t.field({
      type: [ProposedSubQuestionRef],
      nullable: true,
      description:
        'A review step (`reviewProposal`): the sub-questions it put to the person, what a fork from it starts ' +
        'from. Null for other steps.',
      resolve: (step) => step.proposal,
    }),
    decisions: t.field({
      type: [DecisionSnapshotRef],
      description: 'The decisions the step recorded, oldest first.',
      resolve: (step) => step.decisions,
    }),
  }),
});

const RunPathRef = builder.objectRef<RunPath>('RunPath').implement({
  description: "A run's path through its graph so far, from its own events.",
  fields: (t) => ({
    runId: t.exposeID('runId'),
    graph: t.exposeString('graph', { nullable: true }),
    steps: t.field({ type: [PathStepRef], resolve: (path) => path.steps }),
    current: t.exposeString('current', { nullable: true, description: 'The step the run is in now.' }),
    checkpointsKept: t.exposeBoolean('checkpointsKept', {
      description:
        "Whether the run's checkpoints are still kept, so it can be forked once it ended; false once they were " +
        'pruned (beyond the window of the latest runs) and forkRun refuses it.',
    }),
  }),
});

/** The agent steps of every graph (their context is shown). */
async function agentSteps(): Promise<Set<string>> {
  topologies ??= agentGraphTopologies();
  const graphs = await topologies;
  return new Set(graphs.flatMap((g) => g.nodes.filter((n) => n.kind === TopologyNodeKind.AGENT).map((n) => n.id)));
}

builder.queryField('runPath', (t) =>
  t.field({
    type: RunPathRef,
    description:
      "A run's path so far: each step with its round, outcome, duration and state (context, answer, question, " +
      "the person's reply, decisions), and the current step.",
    errors: { types: ACCESS_ERRORS },
    args: { runId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const runId = String(args.runId);
      const run = await ctx.db.read.agentRun.findUnique({
        where: { id: runId },
        select: { id: true, mapId: true, nodeId: true, threadId: true },
      });
      if (!run) throw new NotFoundError('AgentRun', runId);
      await assertMapAccess(ctx, run.mapId);
      return runPath(ctx.db.read, run, await agentSteps());
    },
  }),
);
