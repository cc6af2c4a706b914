import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { NodeIntent } from '../../../domain/enums.ts';
import { recognizeIntentMessages } from '../../../prompts/recognize-intent.ts';
import { IntentDecisionSchema } from '../../../schemas/intent-decision.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Decides DECOMPOSE, CONCLUDE, EXPLORE or CLARIFY. The person's override wins (once). Plain-code caps then
 * apply: no EXPLORE after `maxExplorations` searches, no CLARIFY after `maxQuestions` questions — the run
 * concludes with what it has instead of looping.
 */
export function recognizeIntent(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    let intent: NodeIntent;
    let reason: string;
    if (state.intentOverride) {
      intent = state.intentOverride;
      reason = state.language === 'zh' ? '用户指定' : 'chosen by the person';
    } else {
      const result = await deps.model.structured({
        agent: 'intent',
        schema: IntentDecisionSchema,
        schemaName: 'intent_decision',
        messages: recognizeIntentMessages(state.language, contextFor(state, 'intent')),
        offlineHint: offlineHintOf(state),
        signal: config.signal,
      });
      intent = result.value.intent;
      reason = result.value.reason;
    }
    if (intent === 'EXPLORE' && state.explorations >= (deps.maxExplorations ?? 2)) intent = 'CONCLUDE';
    if (intent === 'CLARIFY' && state.questionsAsked >= (deps.maxQuestions ?? 3)) intent = 'CONCLUDE';
    await deps.store.setNodeIntent(state.nodeId, intent);
    return { intent, intentReason: reason, intentOverride: null };
  };
}
