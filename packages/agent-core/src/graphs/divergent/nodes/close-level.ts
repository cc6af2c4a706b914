import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { DivergentDeps } from '../divergent-deps.ts';
import { endSession } from '../end-session.ts';
import { DIVERGENT_NOTES } from '../notes.ts';
import { type DivergentStateType, type DivergentUpdate, outcomesOf } from '../state.ts';
import { readSteering } from '../steer.ts';

/** True when the latest level produced nothing because its tasks failed (none done, one failed at least). */
export const levelFailed = (state: DivergentStateType) => {
  const outcomes = outcomesOf(state, state.level + 1);
  return outcomes.some((r) => r.status === 'FAILED') && !outcomes.some((r) => r.status === 'DONE');
};

/**
 * Joins a level's parallel tasks. When every one of them failed, the session ends: at level 1 here, with a
 * notice on the latest summary (and no final output); at a later level with the final output written from
 * the earlier levels' results (see `writeFinal`). Otherwise the next summary converges what succeeded. When
 * the map's budget refused a task, the final output is written next, whatever the level did.
 */
export function closeLevel(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    // A stopped session writes its final output from what exists, whatever this level did.
    const { stop } = await readSteering(deps, state);
    if (stop) return { stopRequested: true };
    if (state.budgetOut || !levelFailed(state)) return {};
    if (state.results.some((r) => r.status === 'DONE')) return {};
    const level = state.level + 1;
    return endSession(deps, state, config, {
      nodeId: state.summaryNodeId!,
      note: DIVERGENT_NOTES.allFailed(state.language, level),
      outcome: 'ALL_FAILED',
      level,
      finalNodeId: null,
      key: ['closeLevel', level],
    });
  };
}
