import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { decideStrategyMessages } from '../../../prompts/decide-strategy.ts';
import { type StrategyDecision, StrategyDecisionSchema } from '../../../schemas/strategy-decision.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import { CHOSEN_BY_PERSON, recordStrategy } from '../record-decision.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Chooses SEQUENTIAL, PARALLEL, HIERARCHICAL or EXPLORATORY with the factors weighed; the person's choice wins.
 * The choice is recorded as a decision of the run, with its factors and reason.
 */
export function decideStrategy(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const person = Boolean(state.strategyOverride);
    let strategy: StrategyDecision | null = state.strategyOverride ? personalStrategy(state) : null;
    if (!strategy) {
      const result = await deps.model.structured({
        agent: 'strategy',
        schema: StrategyDecisionSchema,
        schemaName: 'strategy_decision',
        messages: decideStrategyMessages(state.language, contextFor(state, 'strategy')),
        offlineHint: offlineHintOf(state),
        signal: config.signal,
      });
      strategy = result.value;
    }
    await recordStrategy(
      deps,
      config,
      state.nodeId,
      { strategy, decidedBy: person ? 'PERSON' : 'MODEL' },
      'decideStrategy',
    );
    return { strategy };
  };
}

/** The strategy the person chose, as a decision with their preference as its one factor. */
export function personalStrategy(state: Pick<ProcessNodeStateType, 'strategyOverride' | 'language'>): StrategyDecision {
  const strategy = state.strategyOverride!;
  const factor = state.language === 'zh' ? '用户偏好' : 'the person’s preference';
  return { strategy, factors: [{ factor, assessment: strategy }], reason: CHOSEN_BY_PERSON[state.language] };
}
