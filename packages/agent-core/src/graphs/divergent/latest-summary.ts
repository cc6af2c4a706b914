import type { NodeRecord } from '../../domain/records.ts';
import type { CreateDivergentNodeInput } from '../../ports/divergent-store-port.ts';
import type { DivergentDeps } from './divergent-deps.ts';
import type { DivergentStateType } from './state.ts';

/**
 * Creates the session's next summary or its final output under the latest summary (the explored node before the
 * first), with the intent's first line as its goal, so each document of the session hangs from the one before.
 */
export function createUnderLatestSummary(
  deps: DivergentDeps,
  state: DivergentStateType,
  node: Pick<CreateDivergentNodeInput, 'question' | 'role' | 'level' | 'idempotencyKey'>,
): Promise<NodeRecord> {
  return deps.store.createDivergentNode({
    ...node,
    mapId: state.mapId,
    parentId: state.summaryNodeId ?? state.nodeId,
    goal: state.intent.split('\n')[0] ?? '',
  });
}
