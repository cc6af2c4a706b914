import { ancestorIds, subtreeIds } from '@thinkingmap/map-graph';
import type { MapDependency, MapNode } from '../api/results.ts';

/**
 * The nodes `nodeId` could be made to wait for: not itself, not an ancestor or descendant (the server
 * refuses those), not already a dependency; filtered by `search` (case-insensitive). Cycles are left to
 * the server, which refuses them with the path so the person sees why.
 */
export function dependencyCandidates(
  nodeId: string,
  nodes: Record<string, MapNode>,
  dependencies: readonly MapDependency[],
  search = '',
): MapNode[] {
  const all = Object.values(nodes);
  const excluded = new Set([...subtreeIds(all, nodeId), ...ancestorIds(all, nodeId)]);
  for (const dep of dependencies) if (dep.nodeId === nodeId) excluded.add(dep.dependsOnId);
  const needle = search.trim().toLowerCase();
  return all
    .filter((node) => !excluded.has(node.id) && (!needle || node.question.toLowerCase().includes(needle)))
    .sort((a, b) => a.question.localeCompare(b.question));
}
