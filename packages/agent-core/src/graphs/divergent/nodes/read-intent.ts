import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_LIMITS } from '../schemas.ts';
import type { DivergentStateType, DivergentUpdate } from '../state.ts';

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, Math.round(value)));

/** Reads the node the session explores: the map, its language and the intent; bounds the options. */
export function readIntent(deps: DivergentDeps) {
  return async (state: DivergentStateType): Promise<DivergentUpdate> => {
    const { map, node } = await deps.store.readNode(state.nodeId);
    const parts = [node.question, node.goal && `→ ${node.goal}`, ...node.constraints.map((c) => `- ${c}`)];
    if (map.problem && map.problem !== node.question) parts.push(`(${map.problem})`);
    return {
      mapId: map.id,
      language: map.language,
      intent: parts.filter(Boolean).join('\n'),
      maxLevels: clamp(state.maxLevels, 1, DIVERGENT_LIMITS.maxLevels),
      maxParallel: clamp(state.maxParallel, 1, DIVERGENT_LIMITS.maxParallel),
      threshold: Math.min(1, Math.max(0, state.threshold)),
    };
  };
}
