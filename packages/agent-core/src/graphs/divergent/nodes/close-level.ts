import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import { DIVERGENT_NOTES } from '../notes.ts';
import { type DivergentStateType, type DivergentUpdate, outcomesOf } from '../state.ts';
import { readSteering } from '../steer.ts';

/** True when the latest level produced nothing because its tasks failed (none done, one failed at least). */
export const levelFailed = (state: DivergentStateType) => {
  const outcomes = outcomesOf(state, state.level + 1);
  return outcomes.some((r) => r.status === 'FAILED') && !outcomes.some((r) => r.status === 'DONE');
};

/**
 * Joins a level's parallel tasks. When every one of them failed, the session ends here with a notice on
 * the latest summary (and no final output); otherwise the next summary converges what succeeded.
 */
export function closeLevel(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    // A stopped session writes its final output from what exists, whatever this level did.
    const { stop } = await readSteering(deps, state);
    if (stop) return { stopRequested: true };
    if (!levelFailed(state)) return {};
    const note = DIVERGENT_NOTES.allFailed(state.language, state.level + 1);
    await deps.store.postMessage({
      nodeId: state.summaryNodeId!,
      conversation: 'CONCLUDE',
      role: 'SYSTEM',
      kind: 'NOTICE',
      content: note,
      idempotencyKey: writeKey(config, 'closeLevel', state.level + 1),
    });
    deps.events.divergent?.(runRefOf(config, DIVERGENT_GRAPH, state.nodeId), {
      type: 'DivergentFinished',
      payload: { outcome: 'ALL_FAILED', level: state.level + 1, finalNodeId: null, note },
    });
    return { note, outcome: 'ALL_FAILED' };
  };
}
