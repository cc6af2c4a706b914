import type { MapDependency, MapNode } from '../api/results.ts';

/**
 * A string that changes exactly when the tree layout would: nodes added, removed or moved, sibling order,
 * divergent levels, dependencies. Content edits (question, status, conclusion) leave it unchanged.
 */
export function structureKey(nodes: readonly MapNode[], dependencies: readonly MapDependency[]): string {
  let key = '';
  for (const node of nodes) key += `${node.id}<${node.parentId ?? ''}#${node.position}@${node.divergentLevel ?? ''};`;
  key += '|';
  for (const dep of dependencies) key += `${dep.nodeId}>${dep.dependsOnId};`;
  return key;
}
