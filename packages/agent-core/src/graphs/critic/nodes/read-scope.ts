import type { CriticDeps } from '../critic-deps.ts';
import type { CriticStateType, CriticUpdate } from '../state.ts';

/** Reads the map and the subtree under review (the whole tree without a node), with each node's version. */
export function readScope(deps: CriticDeps) {
  return async (state: CriticStateType): Promise<CriticUpdate> => {
    const scope = await deps.critic.readScope(state.mapId, state.scopeNodeId);
    return { scope, language: scope.map.language };
  };
}
