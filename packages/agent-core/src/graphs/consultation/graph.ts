import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { AgentGraph } from '../../domain/enums.ts';
import { FrontRoute, PlannerNext } from '../../schemas/consultation.ts';
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

/** After the front agent (and the compression it may be followed by): the planner when the message carries work. */
const afterFront = (state: ConsultationStateType) => (state.frontRoute === FrontRoute.PLAN ? 'plan' : 'answered');

/** Where each branch after the front agent leads, by its label. */
const AFTER_FRONT = { plan: 'planner_agent', answered: END } as const;

/** After the planner: what it decided to write is written first, then its question, else the turn ends. */
function afterPlanner(state: ConsultationStateType) {
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
 * One consultation turn (design 003): `initial_setup` → `front_agent` → (`compress_context` when due) ⇄
 * `planner_agent` → `db_writer` / `note_writer` → back to the planner. The compression comes after the front
 * agent's reply, never before it: the reply's first token waits for no summary (the front prompt leaves out
 * the messages about to be summarised, so it stays bounded). The front agent answers at once and
 * sends the turn to the planner only when the message carries work; the planner asks the person (through
 * the front agent), writes a record or a note, or finishes. Input: `{ consultationId }`; a turn reads
 * everything else from the store, so it needs no checkpoint to survive a restart: a turn cut short is run
 * again from the person's unplanned messages.
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
    .addEdge('initial_setup', 'front_agent')
    .addConditionalEdges(
      'front_agent',
      (state) => (messagesToCompress(state, deps).length ? 'condense' : afterFront(state)),
      { condense: 'compress_context', ...AFTER_FRONT },
    )
    .addConditionalEdges('compress_context', afterFront, AFTER_FRONT)
    .addConditionalEdges('planner_agent', afterPlanner, AFTER_PLANNER)
    .addConditionalEdges('db_writer', afterWriter(maxPlannerCalls), afterWriterRoutes)
    .addConditionalEdges('note_writer', afterWriter(maxPlannerCalls), afterWriterRoutes)
    .compile({ checkpointer: options.checkpointer });
}
