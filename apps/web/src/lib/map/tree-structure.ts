import { childrenByParent } from '@thinkingmap/map-graph';
import type { MapNode } from '../api/results.ts';

/** The map's nodes as a tree: its roots (nodes without a present parent) and each node's ordered children. */
export interface TreeStructure {
  roots: MapNode[];
  childrenOf: Map<string | null, MapNode[]>;
}

/** Siblings as the person arranged them: by `position`, then creation time, then id; the root question leads the roots. */
export function siblingOrder(a: MapNode, b: MapNode): number {
  return (
    (a.type === 'ROOT' ? -1 : 0) - (b.type === 'ROOT' ? -1 : 0) ||
    a.position - b.position ||
    a.createdAt.localeCompare(b.createdAt) ||
    a.id.localeCompare(b.id)
  );
}

/** Groups nodes into the tree the canvas draws (map-graph's one grouping, in the person's sibling order). */
export function buildTreeStructure(nodes: Iterable<MapNode>): TreeStructure {
  const childrenOf = childrenByParent([...nodes], siblingOrder);
  return { roots: childrenOf.get(null) ?? [], childrenOf };
}
