import type { DependencyRecord, NodeRecord } from '../api/types.ts';

/**
 * The nodes `nodeId` could be made to wait for: not itself, not an ancestor or descendant (the server
 * refuses those), not already a dependency; filtered by `search` (case-insensitive). Cycles are left to
 * the server, which refuses them with the path so the person sees why.
 */
export function dependencyCandidates(
  nodeId: string,
  nodes: Record<string, NodeRecord>,
  dependencies: readonly DependencyRecord[],
  search = '',
): NodeRecord[] {
  const excluded = new Set<string>([nodeId]);
  for (let id = nodes[nodeId]?.parentId; id; id = nodes[id]?.parentId) excluded.add(id);
  const children = new Map<string, string[]>();
  for (const node of Object.values(nodes))
    if (node.parentId) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node.id]);
  const stack = [...(children.get(nodeId) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    excluded.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  for (const dep of dependencies) if (dep.nodeId === nodeId) excluded.add(dep.dependsOnId);
  const needle = search.trim().toLowerCase();
  return Object.values(nodes)
    .filter((node) => !excluded.has(node.id) && (!needle || node.question.toLowerCase().includes(needle)))
    .sort((a, b) => a.question.localeCompare(b.question));
}
