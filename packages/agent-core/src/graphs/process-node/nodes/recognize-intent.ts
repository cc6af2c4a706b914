import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { DecidedBy, NodeIntent } from '../../../domain/enums.ts';
import { recognizeIntentMessages } from '../../../prompts/recognize-intent.ts';
import { IntentDecisionSchema } from '../../../schemas/intent-decision.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import { CHOSEN_BY_PERSON, PROPOSED_BY_PLANNER, recordDecision } from '../record-decision.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const LIMIT_REACHED = {
  en: 'the limit of searches or questions for this run is reached: concluding with what it has',
  zh: '本次运行的检索或提问次数已达上限：根据已有信息得出结论',
} as const;

/**
 * Decides DECOMPOSE, CONCLUDE, EXPLORE or CLARIFY. The person's override wins (once); a consultation planner's
 * proposal is recorded as the planner's decision. Plain-code caps then
 * apply: no EXPLORE after `maxExplorations` searches, no CLARIFY after `maxQuestions` questions — the run
 * concludes with what it has instead of looping. Each choice is recorded as a decision of the run (the
 * model's reason and confidence, the person's override, or the cap with what the model had proposed).
 */
export function recognizeIntent(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    let intent: NodeIntent;
    let reason: string;
    let confidence: number | null = null;
    let decidedBy: DecidedBy = 'MODEL';
    if (state.intentOverride && state.proposalOverride) {
      // A consultation's planner proposed this decomposition: its choice, not the person's.
      intent = state.intentOverride;
      reason = PROPOSED_BY_PLANNER[state.language];
      decidedBy = 'PLANNER';
    } else if (state.intentOverride) {
      intent = state.intentOverride;
      reason = CHOSEN_BY_PERSON[state.language];
      decidedBy = 'PERSON';
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
      confidence = result.value.confidence;
    }
    const proposed = intent;
    if (intent === 'EXPLORE' && state.explorations >= (deps.maxExplorations ?? 2)) intent = 'CONCLUDE';
    if (intent === 'CLARIFY' && state.questionsAsked >= (deps.maxQuestions ?? 3)) intent = 'CONCLUDE';
    await deps.store.setNodeIntent(state.nodeId, intent);
    const capped = intent !== proposed;
    await recordDecision(
      deps,
      config,
      state.nodeId,
      {
        kind: 'INTENT',
        choice: { intent },
        reason: capped ? `${reason} — ${LIMIT_REACHED[state.language]}` : reason,
        confidence,
        decidedBy: capped ? 'SYSTEM' : decidedBy,
        overridden: capped ? { intent: proposed } : null,
      },
      'recognizeIntent',
      state.explorations,
      state.questionsAsked,
    );
    return { intent, intentReason: reason, intentOverride: null };
  };
}
