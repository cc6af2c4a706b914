import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import type { UnderstandProblemStateType, UnderstandProblemUpdate } from '../state.ts';

/** Records the confirmed understanding (title included) on the map and creates its root node, through the store port. */
export function createRootNode(deps: AgentDeps) {
  return async (
    state: UnderstandProblemStateType,
    config: LangGraphRunnableConfig,
  ): Promise<UnderstandProblemUpdate> => {
    const understanding = state.understanding!;
    const language = state.language ?? 'en';
    await deps.store.updateMap(state.mapId, {
      title: understanding.title,
      problem: understanding.problem,
      goal: understanding.goal,
      constraints: understanding.constraints,
      language,
      idempotencyKey: writeKey(config, 'createRootNode', 'map'),
    });
    const root = await deps.store.createNode({
      mapId: state.mapId,
      parentId: null,
      question: understanding.problem,
      goal: understanding.goal,
      constraints: understanding.constraints,
      idempotencyKey: writeKey(config, 'createRootNode', 'root'),
    });
    return { rootNodeId: root.id };
  };
}
