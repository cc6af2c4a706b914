/** The minimal view of a node that tree walks need. */
export interface TreeNode {
  id: string;
  parentId: string | null;
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
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

/** Whether `candidateId` lies in the subtree of `rootId` (the root itself included). */
export function isInSubtree(nodes: readonly TreeNode[], rootId: string, candidateId: string): boolean {
  const parent = new Map(nodes.map((node) => [node.id, node.parentId]));
  for (let current: string | null | undefined = candidateId; current; current = parent.get(current)) {
    if (current === rootId) return true;
  }
  return false;
}
