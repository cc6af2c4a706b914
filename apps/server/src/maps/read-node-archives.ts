import type { Tx } from '@thinkingmap/db';
import { type NodeArchive, toNodeArchive } from '../commands/node-archive.ts';

const oldestFirst = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];

/** Groups rows by their node. */
function byNode<T extends { nodeId: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.nodeId);
    if (group) group.push(row);
    else groups.set(row.nodeId, [row]);
  }
  return groups;
}

/**
 * Reads what deleting these nodes removes besides their rows: each node's conversations with all their
 * messages, its context items and the decisions about it, oldest first, and the runs that worked on it, as one
 * archive per node (in `nodeIds` order).
 */
export async function readNodeArchives(tx: Tx, nodeIds: string[]): Promise<NodeArchive[]> {
  const onNodes = { nodeId: { in: nodeIds } };
  const conversations = byNode(
    await tx.conversation.findMany({
      where: onNodes,
      include: { messages: { orderBy: oldestFirst } },
      orderBy: { kind: 'asc' },
    }),
  );
  const items = byNode(await tx.contextItem.findMany({ where: onNodes, orderBy: oldestFirst }));
  const decisions = byNode(
    (await tx.decision.findMany({ where: onNodes, orderBy: oldestFirst })).map((d) => ({ ...d, nodeId: d.nodeId! })),
  );
  const runs = byNode(
    (await tx.agentRun.findMany({ where: onNodes, select: { id: true, nodeId: true }, orderBy: oldestFirst })).map(
      (r) => ({ id: r.id, nodeId: r.nodeId! }),
    ),
  );
  return nodeIds.map((nodeId) =>
    toNodeArchive(nodeId, {
      conversations: conversations.get(nodeId) ?? [],
      contextItems: items.get(nodeId) ?? [],
      decisions: decisions.get(nodeId) ?? [],
      runIds: (runs.get(nodeId) ?? []).map((r) => r.id),
    }),
  );
}
