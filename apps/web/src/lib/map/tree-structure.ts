import type { NodeRecord } from '../api/types.ts';

/** Parent → ordered children, and the roots (nodes without a parent, or whose parent is gone). */
export interface TreeStructure {
  roots: NodeRecord[];
  childrenOf: Map<string, NodeRecord[]>;
}

/** Groups nodes into a tree ordered by `position` (ties by creation time, then id). */
export function buildTreeStructure(nodes: Iterable<NodeRecord>): TreeStructure {
  const all = [...nodes];
  const ids = new Set(all.map((node) => node.id));
  const childrenOf = new Map<string, NodeRecord[]>();
  const roots: NodeRecord[] = [];
  for (const node of all) {
    if (node.parentId && ids.has(node.parentId)) {
      const siblings = childrenOf.get(node.parentId) ?? [];
      siblings.push(node);
      childrenOf.set(node.parentId, siblings);
    } else {
      roots.push(node);
    }
  }
  const order = (a: NodeRecord, b: NodeRecord) =>
    a.position - b.position || (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.id.localeCompare(b.id);
  for (const siblings of childrenOf.values()) siblings.sort(order);
  roots.sort((a, b) => (a.type === 'ROOT' ? -1 : 0) - (b.type === 'ROOT' ? -1 : 0) || order(a, b));
  return { roots, childrenOf };
}

/** Nodes in depth-first tree order (what export and keyboard order follow). */
export function walkTree(tree: TreeStructure, visit: (node: NodeRecord, depth: number) => void): void {
  const stack: [NodeRecord, number][] = tree.roots.map((root) => [root, 0] as [NodeRecord, number]).reverse();
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    visit(node, depth);
    const children = tree.childrenOf.get(node.id) ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, depth + 1]);
  }
}
