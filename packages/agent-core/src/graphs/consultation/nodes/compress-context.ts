import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { summaryMessages } from '../../../prompts/consultation.ts';
import { ConversationSummarySchema } from '../../../schemas/consultation.ts';
import { CONSULTATION_LIMITS, type ConsultationDeps } from '../consultation-deps.ts';
import type { ConsultationStateType, ConsultationUpdate } from '../state.ts';
import { throwIfAborted } from './abort.ts';

/** The messages a compression summarises: all but the recent ones and those not planned yet; [] when not due. */
export function messagesToCompress(state: ConsultationStateType, deps: ConsultationDeps): string[] {
  const afterTurns = deps.compressAfterTurns ?? CONSULTATION_LIMITS.compressAfterTurns;
  const turns = state.messages.filter((m) => m.role === 'PERSON').length;
  if (turns <= afterTurns) return [];
  const keep = new Set([
    ...state.unplanned,
    ...state.messages.slice(-CONSULTATION_LIMITS.keepRecentMessages).map((m) => m.id),
  ]);
  return state.messages.filter((m) => !keep.has(m.id)).map((m) => m.id);
}

/**
 * Context compression (design 003 §4): after the configured number of turns, earlier messages are
 * summarised, with the earlier summary, into one summary that prompts show instead of them. The messages
 * themselves stay in the store: nothing the person wrote is lost.
 */
export function compressContext(deps: ConsultationDeps) {
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    throwIfAborted(config);
    const ids = new Set(messagesToCompress(state, deps));
    if (!ids.size) return {};
    const old = state.messages.filter((m) => ids.has(m.id));
    const result = await deps.model.structured({
      agent: 'summarize',
      schema: ConversationSummarySchema,
      schemaName: 'consultation_summary',
      messages: summaryMessages(state.language, state.summary, old),
      offlineHint: { language: state.language, question: [state.summary, ...old.map((m) => m.text)].join('\n') },
      signal: config.signal,
    });
    throwIfAborted(config);
    await deps.store.compress(state.consultationId, result.value.summary, [...ids]);
    return { summary: result.value.summary, messages: state.messages.filter((m) => !ids.has(m.id)) };
  };
}
