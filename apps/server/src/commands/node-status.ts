import type { Tx } from '@thinkingmap/db';
import { toWire } from '../events/map-event.ts';
import type { Emit } from './mutate-map.ts';

/** Statuses the dependency checker may move between; running, waiting, completed and failed are left alone. */
const WAITING_STATES = new Set(['PENDING', 'READY', 'BLOCKED']);

/**
 * Re-checks the nodes' dependencies: a node with an open dependency becomes BLOCKED, a blocked node whose
 * dependencies are all completed becomes READY. Emits NodeUpdated for each change.
 */
export async function refreshBlocked(tx: Tx, nodeIds: Iterable<string>, emit: Emit): Promise<void> {
  const ids = [...new Set(nodeIds)];
  if (ids.length === 0) return;
  const nodes = await tx.node.findMany({
    where: { id: { in: ids } },
    include: { dependencies: { include: { dependsOn: { select: { status: true } } } } },
  });
  for (const node of nodes) {
    if (!WAITING_STATES.has(node.status)) continue;
    const open = node.dependencies.some((dependency) => dependency.dependsOn.status !== 'COMPLETED');
    const next = open ? 'BLOCKED' : node.status === 'BLOCKED' ? 'READY' : node.status;
    if (next === node.status) continue;
    const updated = await tx.node.update({ where: { id: node.id }, data: { status: next } });
    emit({ type: 'NodeUpdated', payload: { node: toWire(updated), fields: ['status'] } });
  }
}
