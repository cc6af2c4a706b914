import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { AgentGraph } from '../../domain/enums.ts';
import { FrontRoute, PlannerNext } from '../../schemas/consultation.ts';
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

/** After the planner: what it decided to write is written first, then its question, else the turn ends. */
function afterPlanner(state: ConsultationStateType) {
  if (state.plannerNext === PlannerNext.NOTE_WRITER && state.pendingNotes.length) return 'note_writer';
  if (state.pendingRecords.length || state.pendingProposals.length) return 'db_writer';
  if (state.pendingNotes.length) return 'note_writer';
  if (state.plannerNext === PlannerNext.FRONT && state.askUser) return 'front_agent';
  return END;
}

/**
 * After a writer: the other writer when something is left; the person when the planner's next move was a
 * question; the end when it finished; otherwise back to the planner, within the turn's bound of planner calls.
 */
function afterWriter(maxPlannerCalls: number) {
  return (state: ConsultationStateType) => {
    if (state.pendingRecords.length || state.pendingProposals.length) return 'db_writer';
    if (state.pendingNotes.length) return 'note_writer';
    if (state.plannerNext === PlannerNext.FRONT && state.askUser) return 'front_agent';
    if (state.plannerNext === PlannerNext.FINISH || state.plannerCalls >= maxPlannerCalls) return END;
    return 'planner_agent';
  };
}

/**
 * One consultation turn (design 003): `initial_setup` → (`compress_context` when due) → `front_agent` ⇄
 * `planner_agent` → `db_writer` / `note_writer` → back to the planner. The front agent answers at once and
 * sends the turn to the planner only when the message carries work; the planner asks the person (through
 * the front agent), writes a record or a note, or finishes. Input: `{ consultationId }`; a turn reads
 * everything else from the store, so it needs no checkpoint to survive a restart: a turn cut short is run
 * again from the person's unplanned messages.
 */
export function createConsultationGraph(deps: ConsultationDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const maxPlannerCalls = deps.maxPlannerCalls ?? CONSULTATION_LIMITS.maxPlannerCalls;
  const writerRoutes = ['db_writer', 'note_writer', 'front_agent', 'planner_agent', END] as const;
  return new StateGraph(ConsultationState)
    .addNode('initial_setup', initialSetup(deps))
    .addNode('compress_context', compressContext(deps))
    .addNode('front_agent', frontAgent(deps))
    .addNode('planner_agent', plannerAgent(deps))
    .addNode('db_writer', dbWriter(deps))
    .addNode('note_writer', noteWriter(deps))
    .addEdge(START, 'initial_setup')
    .addConditionalEdges(
      'initial_setup',
      (state) => (messagesToCompress(state, deps).length ? 'compress_context' : 'front_agent'),
      ['compress_context', 'front_agent'],
    )
    .addEdge('compress_context', 'front_agent')
    .addConditionalEdges('front_agent', (state) => (state.frontRoute === FrontRoute.PLAN ? 'planner_agent' : END), [
      'planner_agent',
      END,
    ])
    .addConditionalEdges('planner_agent', afterPlanner, ['db_writer', 'note_writer', 'front_agent', END])
    .addConditionalEdges('db_writer', afterWriter(maxPlannerCalls), [...writerRoutes])
    .addConditionalEdges('note_writer', afterWriter(maxPlannerCalls), [...writerRoutes])
    .compile({ checkpointer: options.checkpointer });
}
