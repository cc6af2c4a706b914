import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import type { DivergentStateType, DivergentUpdate, LevelTask } from '../state.ts';

/** The citation key of a level's task: `L1.T2`. */
export const taskKey = (level: number, index: number) => `L${level}.T${index + 1}`;

/**
 * Creates the level's task nodes under the latest summary (question = name, goal = query), each with an
 * idempotency key, so a re-run creates none twice; the tasks then run in parallel.
 */
export function createTasks(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    const level = state.level + 1;
    const tasks: LevelTask[] = [];
    for (const [i, planned] of state.plan.entries()) {
      const node = await deps.store.createDivergentNode({
        mapId: state.mapId,
        parentId: state.summaryNodeId,
        question: planned.name,
        goal: planned.query,
        role: 'TASK',
        level,
        idempotencyKey: writeKey(config, 'createTasks', level, i),
      });
      tasks.push({ ...planned, key: taskKey(level, i), level, nodeId: node.id });
    }
    deps.events.divergent?.(runRefOf(config, DIVERGENT_GRAPH, state.nodeId), {
      type: 'DivergentLevelStarted',
      payload: {
        level,
        summaryNodeId: state.summaryNodeId!,
        tasks: tasks.map(({ key, nodeId, name, query, skill, priority, addedId }) => ({
          key,
          nodeId,
          name,
          query,
          skill,
          priority,
          addedId: addedId ?? null,
        })),
        dropped: state.dropped
          .filter((d) => d.level === level)
          .map(({ name, query, skill, priority, reason }) => ({ name, query, skill, priority, reason })),
      },
    });
    return { tasks };
  };
}
