import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { decideStrategyMessages } from '../../../prompts/decide-strategy.ts';
import { StrategyDecisionSchema } from '../../../schemas/strategy-decision.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/** Chooses SEQUENTIAL, PARALLEL, HIERARCHICAL or EXPLORATORY with the factors weighed; the person's choice wins. */
export function decideStrategy(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    if (state.strategyOverride) {
      const factor = state.language === 'zh' ? '用户偏好' : 'the person’s preference';
      const strategy = {
        strategy: state.strategyOverride,
        factors: [{ factor, assessment: state.strategyOverride }],
        reason: factor,
      };
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
