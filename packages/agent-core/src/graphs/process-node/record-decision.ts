import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { DecidedBy } from '../../domain/enums.ts';
import type { DecisionInput } from '../../ports/store-port.ts';
import type { StrategyDecision } from '../../schemas/strategy-decision.ts';
import type { AgentDeps } from '../shared/agent-deps.ts';
import { runRefOf, writeKey } from '../shared/run-config.ts';
import { PROCESS_NODE_GRAPH } from './process-node-graph-name.ts';

/**
 * Records a decision the step made about the node, as a decision of its run. The key is built like a write's
 * idempotency key (step and round), so a step LangGraph re-runs records it once.
 */
export function recordDecision(
  deps: AgentDeps,
  config: LangGraphRunnableConfig,
  nodeId: string,
  decision: Omit<DecisionInput, 'runId' | 'nodeId' | 'key'>,
  step: string,
  ...round: (string | number)[]
): Promise<void> {
  const { runId } = runRefOf(config, PROCESS_NODE_GRAPH, nodeId);
  return deps.store.recordDecision({ ...decision, runId, nodeId, key: writeKey(config, step, ...round) });
}

/**
 * Sets the node's strategy and records the choice as a STRATEGY decision of the run, with its factors and
 * reason, and the choice it replaces when the person overrode the model's (`overridden`).
 */
export async function recordStrategy(
  deps: AgentDeps,
  config: LangGraphRunnableConfig,
  nodeId: string,
  chosen: { strategy: StrategyDecision; decidedBy: DecidedBy; overridden?: StrategyDecision | null },
  step: string,
  ...round: (string | number)[]
): Promise<void> {
  const { strategy, factors, reason } = chosen.strategy;
  const overridden = chosen.overridden
    ? { strategy: chosen.overridden.strategy, factors: chosen.overridden.factors }
    : null;
  await deps.store.setNodeStrategy(nodeId, strategy);
  await recordDecision(
    deps,
    config,
    nodeId,
    { kind: 'STRATEGY', choice: { strategy, factors }, reason, decidedBy: chosen.decidedBy, overridden },
    step,
    ...round,
  );
}

/** The reason given for a choice the person made (in the map's language). */
export const CHOSEN_BY_PERSON = { en: 'chosen by the person', zh: '用户指定' } as const;

/** The reason given for a decomposition a consultation's planner proposed (in the map's language). */
export const PROPOSED_BY_PLANNER = { en: "proposed by the consultation's planner", zh: '由咨询规划者提议' } as const;
