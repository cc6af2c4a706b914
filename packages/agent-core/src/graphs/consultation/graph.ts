import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { AgentGraph } from '../../domain/enums.ts';
import { PlannerNext } from '../../schemas/consultation.ts';
import { StepKind, stepKind } from '../shared/step-kind.ts';
import { CONSULTATION_LIMITS, type ConsultationDeps } from './consultation-deps.ts';
import { compressContext, messagesToCompress } from './nodes/compress-context.ts';
import { dbWriter } from './nodes/db-writer.ts';
import { frontAgent } from './nodes/front-agent.ts';
import { initialSetup } from './nodes/initial-setup.ts';
import { noteWriter } from './nodes/note-writer.ts';
import { plannerAgent } from './nodes/planner-agent.ts';
import { ConsultationState, type ConsultationStateType } from './state.ts';

/** The graph's name in events and run records. */
export const CONSULTATION_GRAPH = AgentGraph.CONSULTATION;

/**
 * After the setup: the front agent answers, and when the person's messages are unplanned the planner starts
 * beside it, in the same step (a fan-out), so its call overlaps the streaming reply.
 */
const afterSetup = (state: ConsultationStateType) => (state.unplanned.length ? ['answer', 'plan'] : ['answer']);

/** Where each branch after the setup leads, by its label. */
const AFTER_SETUP = { answer: 'front_agent', plan: 'planner_agent' } as const;

/**
 * After the front agent: the compression when it is due after a reply, else the front agent's part of the turn
 * is over (the planner's branch goes on). Not after it put the planner's question: the compression due after
 * the reply was already sent on its way then, and may be running beside the question.
 */
function afterFront(deps: ConsultationDeps) {
  return (state: ConsultationStateType) =>
    !state.asked && messagesToCompress(state, deps).length ? 'condense' : 'answered';
}

/** After the planner: what it decided to write is written first, then its question, else the turn ends. */
function afterPlanner(state: ConsultationStateType) {
  if (state.plannerFailure) return 'finished';
  if (state.plannerNext === PlannerNext.NOTE_WRITER && state.pendingNotes.length) return 'note';
  if (state.pendingRecords.length || state.pendingProposals.length) return 'record';
  if (state.pendingNotes.length) return 'note';
  if (state.plannerNext === PlannerNext.FRONT && state.askUser) return 'ask';
  return 'finished';
}

/** Where each branch after the planner or a writer leads, by its label. */
const AFTER_PLANNER = { record: 'db_writer', note: 'note_writer', ask: 'front_agent', finished: END } as const;

/**
 * After a writer: the other writer when something is left; the person when the planner's next move was a
 * question; the end when it finished; otherwise back to the planner, within the turn's bound of planner calls.
 */
function afterWriter(maxPlannerCalls: number) {
  return (state: ConsultationStateType) => {
    if (state.pendingRecords.length || state.pendingProposals.length) return 'record';
    if (state.pendingNotes.length) return 'note';
    if (state.plannerNext === PlannerNext.FRONT && state.askUser) return 'ask';
    if (state.plannerNext === PlannerNext.FINISH || state.plannerCalls >= maxPlannerCalls) return 'finished';
    return 'plan';
  };
}

/**
 * One consultation turn (design 003): `initial_setup` → `front_agent` and, when the person's messages are
 * unplanned, `planner_agent` beside it in the same step; the front agent's reply streams while the planner
 * thinks, and neither waits for the other to start. The front agent's branch ends with its stored reply (and
 * the compression, when due, after it: the reply's first token waits for no summary, and the front prompt
 * leaves out the messages about to be summarised, so it stays bounded). The planner's branch goes on ⇄
 * `db_writer` / `note_writer` → back to the planner, and may end by asking the person through `front_agent`;
 * LangGraph starts a step only when the step before has ended, so what the planner decided (records, notes,
 * proposals, its question) follows the stored reply, and only a plan update may reach the person before it.
 *
 * The front agent's route (work, chat, the end) does not gate the planner: the planner saw the same messages
 * and decides for itself. A chat-only message leaves it nothing to do but `FINISH`; what it does decide to
 * keep is kept, so a fact the front agent took for small talk is not lost. The cost is one planner call on a
 * message that carried no work.
 *
 * Input: `{ consultationId }`; a turn reads everything else from the store, so it needs no checkpoint to
 * survive a restart: a turn cut short is run again from the person's unplanned messages.
 */
export function createConsultationGraph(deps: ConsultationDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const maxPlannerCalls = deps.maxPlannerCalls ?? CONSULTATION_LIMITS.maxPlannerCalls;
  const afterWriterRoutes = { ...AFTER_PLANNER, plan: 'planner_agent' } as const;
  const AGENT = stepKind(StepKind.AGENT);
  const TOOL = stepKind(StepKind.TOOL);
  return new StateGraph(ConsultationState)
    .addNode('initial_setup', initialSetup(deps), TOOL)
    .addNode('compress_context', compressContext(deps), AGENT)
    .addNode('front_agent', frontAgent(deps), AGENT)
    .addNode('planner_agent', plannerAgent(deps), AGENT)
    .addNode('db_writer', dbWriter(deps), TOOL)
    .addNode('note_writer', noteWriter(deps), TOOL)
    .addEdge(START, 'initial_setup')
    .addConditionalEdges('initial_setup', afterSetup, AFTER_SETUP)
    .addConditionalEdges('front_agent', afterFront(deps), { condense: 'compress_context', answered: END })
    .addEdge('compress_context', END)
    .addConditionalEdges('planner_agent', afterPlanner, AFTER_PLANNER)
    .addConditionalEdges('db_writer', afterWriter(maxPlannerCalls), afterWriterRoutes)
    .addConditionalEdges('note_writer', afterWriter(maxPlannerCalls), afterWriterRoutes)
    .compile({ checkpointer: options.checkpointer });
}
