import { NodeStatus, type Tx } from '@thinkingmap/db';
import { readiness } from '@thinkingmap/map-graph';
import { toNodeSnapshot } from '../commands/event-snapshots.ts';
import type { Emit } from '../commands/mutate-map.ts';

/** Statuses the dependency checker may move between; running, waiting, completed and failed are left alone. */
const WAITING_STATES = new Set<NodeStatus>([NodeStatus.PENDING, NodeStatus.READY, NodeStatus.BLOCKED]);

/**
 * Re-checks the nodes' dependencies: a node with an open dependency becomes BLOCKED, a blocked node whose
 * dependencies are all completed becomes READY. Emits NodeUpdated for each change.
 */
export async function refreshBlocked(tx: Tx, nodeIds: Iterable<string>, emit: Emit): Promise<void> {
  const ids = [...new Set(nodeIds)];
  if (ids.length === 0) return;
  const nodes = await tx.node.findMany({
    where: { id: { in: ids } },
    include: { dependencies: { include: { dependsOn: { select: { id: true, question: true, status: true } } } } },
  });
  for (const node of nodes) {
    if (!WAITING_STATES.has(node.status)) continue;
    const open = !readiness(node.dependencies.map((dependency) => dependency.dependsOn)).ready;
    const next = open ? NodeStatus.BLOCKED : node.status === NodeStatus.BLOCKED ? NodeStatus.READY : node.status;
    if (next === node.status) continue;
    const updated = await tx.node.update({ where: { id: node.id }, data: { status: next } });
    emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(updated), fields: ['status'] } });
  }
}
