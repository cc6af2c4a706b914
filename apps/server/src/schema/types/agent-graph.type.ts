import {
  agentGraphTopologies,
  type GraphTopology,
  type TopologyEdge,
  type TopologyNode,
  TopologyNodeKind,
} from '@thinkingmap/agent-core';
import { NotFoundError } from '../../errors/domain-errors.ts';
import { type PathStep, type RunPath, runPath } from '../../history/run-path.ts';
import { assertMapAccess } from '../access.ts';
import { builder } from '../builder.ts';
import { ACCESS_ERRORS } from './errors.type.ts';

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

const PathStepRef = builder.objectRef<PathStep>('RunPathStep').implement({
  description: "One visit of a run to a graph step; `round` 2 or more is a loop's next round.",
  fields: (t) => ({
    step: t.exposeID('step', { description: 'The step (a node id of the graph in agentGraphs).' }),
    round: t.exposeInt('round'),
    enteredSeq: t.exposeInt('enteredSeq'),
    enteredAt: t.expose('enteredAt', { type: 'DateTime' }),
    outcome: t.exposeString('outcome', {
      nullable: true,
      description: 'done, failed or interrupted; null while it runs.',
    }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
  }),
});

const RunPathRef = builder.objectRef<RunPath>('RunPath').implement({
  description: "A run's path through its graph so far, from its AgentStep events.",
  fields: (t) => ({
    runId: t.exposeID('runId'),
    graph: t.exposeString('graph', { nullable: true }),
    steps: t.field({ type: [PathStepRef], resolve: (path) => path.steps }),
    current: t.exposeString('current', { nullable: true, description: 'The step the run is in now.' }),
  }),
});

builder.queryField('runPath', (t) =>
  t.field({
    type: RunPathRef,
    description: "A run's path so far: each step with its round, outcome and duration, and the current step.",
    errors: { types: ACCESS_ERRORS },
    args: { runId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const runId = String(args.runId);
      const run = await ctx.db.read.agentRun.findUnique({ where: { id: runId }, select: { mapId: true } });
      if (!run) throw new NotFoundError('AgentRun', runId);
      await assertMapAccess(ctx, run.mapId);
      return runPath(ctx.db.read, run.mapId, runId);
    },
  }),
);
