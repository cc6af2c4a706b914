import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ConsultationDeps } from '../consultation-deps.ts';
import type { ConsultationStateType, ConsultationUpdate } from '../state.ts';
import { throwIfAborted } from './abort.ts';

/**
 * Starts a turn from the store (design 003's `initial_setup`): the messages after the summary, the plan, the
 * facts, the person's messages not planned yet, and the records and notes kept so far. Everything a turn decided last time and did not write is
 * dropped: a turn starts clean.
 */
export function initialSetup(deps: ConsultationDeps) {
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    throwIfAborted(config);
    const snapshot = await deps.store.load(state.consultationId);
    return {
      language: snapshot.language,
      strategy: snapshot.strategy,
      summary: snapshot.summary,
      messages: snapshot.messages,
      unplanned: snapshot.unplanned,
      plan: snapshot.plan,
      currentStep: snapshot.currentStep,
      context: snapshot.context,
      nodes: snapshot.nodes ?? [],
      records: snapshot.records,
      notes: snapshot.notes,
      pendingRecords: [],
      pendingNotes: [],
      pendingProposals: [],
      askUser: null,
      asked: false,
      frontRoute: null,
      plannerNext: null,
      plannerCalls: 0,
      plannerFailure: null,
    };
  };
}
