/** The minimal view of a node that tree walks need. */
export interface TreeNode {
  id: string;
  parentId: string | null;
}

/** A tree node with its place among its siblings. */
export interface PositionedTreeNode extends TreeNode {
  position: number;
}

/** How siblings are ordered: a comparator, as `Array.prototype.sort` takes it. */
export type SiblingOrder<T> = (a: T, b: T) => number;

/** Siblings by `position`, ties by id, so the order is the same on every machine. */
export function byPosition(a: PositionedTreeNode, b: PositionedTreeNode): number {
  return a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Each node's children, in sibling order. The roots stand under `null`: nodes without a parent and nodes
 * whose parent is not among `nodes` (a partial or half-loaded map), so nothing given is ever dropped.
 */
export function childrenByParent<T extends TreeNode>(
  nodes: readonly T[],
  order?: SiblingOrder<T>,
): Map<string | null, T[]> {
  const ids = new Set(nodes.map((node) => node.id));
  const children = new Map<string | null, T[]>();
  for (const node of nodes) {
    const parent = node.parentId !== null && ids.has(node.parentId) ? node.parentId : null;
    const list = children.get(parent);
    if (list) list.push(node);
    else children.set(parent, [node]);
  }
  if (order) for (const list of children.values()) list.sort(order);
  return children;
}

/** A node in tree order, with its depth (a root is at 0). */
export interface PlacedTreeNode<T> {
  node: T;
  depth: number;
}

/**
 * The nodes in depth-first pre-order — each parent, then its subtrees in sibling order — with their depth: the
 * order a map is read, exported and executed in (ties of the dependency order). Iterative, so a deep tree
 * cannot overflow the stack; a node caught in a parent loop (bad data) is left out rather than looping.
 */
export function treeOrder<T extends PositionedTreeNode>(
  nodes: readonly T[],
  order: SiblingOrder<T> = byPosition,
): PlacedTreeNode<T>[] {
  const children = childrenByParent(nodes, order);
  const out: PlacedTreeNode<T>[] = [];
  const stack: PlacedTreeNode<T>[] = (children.get(null) ?? []).map((node) => ({ node, depth: 0 })).reverse();
  while (stack.length) {
    const placed = stack.pop()!;
    out.push(placed);
    const below = children.get(placed.node.id) ?? [];
    for (let i = below.length - 1; i >= 0; i--) stack.push({ node: below[i]!, depth: placed.depth + 1 });
  }
  return out;
}

/**
 * The ids above `nodeId`, from its parent up to the root. Stops at a parent that is not among `nodes` and at
 * a loop, so bad data cannot hang it. Empty for a root or an unknown id.
 */
export function ancestorIds(nodes: readonly TreeNode[], nodeId: string): string[] {
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  const out: string[] = [];
  const seen = new Set([nodeId]);
  for (let at = parentOf.get(nodeId); at && parentOf.has(at) && !seen.has(at); at = parentOf.get(at)) {
    seen.add(at);
    out.push(at);
  }
  return out;
}

/** How deep `nodeId` lies: 0 for a root, 1 for its children, … (the number of its ancestors). */
export function depthOf(nodes: readonly TreeNode[], nodeId: string): number {
  return ancestorIds(nodes, nodeId).length;
}

/** Every id in the subtree rooted at `rootId`, the root first (breadth-first). */
export function subtreeIds(nodes: readonly TreeNode[], rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.parentId === null) continue;
    const list = children.get(node.parentId);
    if (list) list.push(node.id);
    else children.set(node.parentId, [node.id]);
  }
  const out = [rootId];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const child of children.get(out[i]!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
    }
  }
  return out;
}

/** Whether `candidateId` lies in the subtree of `rootId` (the root itself included). */
export function isInSubtree(nodes: readonly TreeNode[], rootId: string, candidateId: string): boolean {
  return candidateId === rootId || ancestorIds(nodes, candidateId).includes(rootId);
}
