import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { DecompositionStrategy, Language } from '../../../domain/enums.ts';
import { decideStrategyMessages } from '../../../prompts/decide-strategy.ts';
import { type StrategyDecision, StrategyDecisionSchema } from '../../../schemas/strategy-decision.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/** The strategy decision when the person chose it (at the start or at review): their preference is the reason. */
export function strategyChosenByPerson(language: Language, strategy: DecompositionStrategy): StrategyDecision {
  const factor = language === 'zh' ? '用户偏好' : 'the person’s preference';
  return { strategy, factors: [{ factor, assessment: strategy }], reason: factor };
}

/** Chooses SEQUENTIAL, PARALLEL, HIERARCHICAL or EXPLORATORY with the factors weighed; the person's choice wins. */
export function decideStrategy(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    if (state.strategyOverride) {
      const strategy = strategyChosenByPerson(state.language, state.strategyOverride);
      await deps.store.setNodeStrategy(state.nodeId, strategy.strategy);
      return { strategy };
    }
    const result = await deps.model.structured({
      agent: 'strategy',
      schema: StrategyDecisionSchema,
      schemaName: 'strategy_decision',
      messages: decideStrategyMessages(state.language, contextFor(state, 'strategy')),
      offlineHint: offlineHintOf(state),
      signal: config.signal,
    });
    await deps.store.setNodeStrategy(state.nodeId, result.value.strategy);
    return { strategy: result.value };
  };
}
