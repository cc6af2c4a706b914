import type { StorePort } from '../ports/store-port.ts';

/**
 * After `concludedNodeId` concluded: the parent whose conclusion should now start by itself, or null.
 * That is the parent when every one of its children is COMPLETED and it is not concluded itself. The
 * server calls this after each conclusion (when the map allows automatic runs) and runs the parent with
 * intent CONCLUDE; the climb repeats up the tree.
 */
export async function nextBottomUpNode(store: StorePort, concludedNodeId: string): Promise<string | null> {
  const { node } = await store.readNode(concludedNodeId);
  if (node.status !== 'COMPLETED' || node.parentId === null) return null;
  const parent = await store.readNode(node.parentId);
  if (parent.node.status === 'COMPLETED') return null;
  return parent.children.every((child) => child.status === 'COMPLETED') ? parent.node.id : null;
}
