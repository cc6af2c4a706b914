import { StaleReason, type Tx } from '@thinkingmap/db';
import { toMapSnapshot, toNodeSnapshot } from '../commands/event-snapshots.ts';
import type { Emit } from '../commands/mutate-map.ts';

/** A node whose conclusion a change may have made out of date, why, and which node changed. */
export interface StaleCause {
  nodeId: string;
  reason: StaleReason;
  source: { id: string; question: string };
}

/** The fields that say a conclusion is current again (set when a node is concluded). */
export const FRESH = { staleReason: null, staleSourceId: null, staleSourceQuestion: null, staleSince: null } as const;

/**
 * Marks conclusions out of date, in the transaction of the change that caused it: each node of `causes` that
 * has a conclusion (and is not marked already, keeping its first reason) gets the reason, the node that
 * changed and the time, and a `NodeStale` event. Staleness climbs the tree: the parent of a node marked
 * stale concluded from that node's conclusion, so it is marked too (`CHILD_STALE`), and so on up; a root
 * marked stale puts a completed map back to ACTIVE. Nodes stay in their status with their conclusion; only
 * concluding them again clears the mark.
 */
export async function markStale(tx: Tx, emit: Emit, causes: readonly StaleCause[]): Promise<void> {
  const queue = [...causes];
  const seen = new Set<string>();
  const now = new Date();
  for (let cause = queue.shift(); cause; cause = queue.shift()) {
    if (seen.has(cause.nodeId)) continue;
    seen.add(cause.nodeId);
    const node = await tx.node.findUnique({
      where: { id: cause.nodeId },
      select: { conclusion: true, staleReason: true },
    });
    if (!node || node.conclusion === null || node.staleReason !== null) continue;
    const stale = await tx.node.update({
      where: { id: cause.nodeId },
      data: {
        staleReason: cause.reason,
        staleSourceId: cause.source.id,
        staleSourceQuestion: cause.source.question,
        staleSince: now,
      },
    });
    emit({ type: 'NodeStale', payload: { node: toNodeSnapshot(stale) } });
    const source = { id: stale.id, question: stale.question };
    if (stale.parentId) queue.push({ nodeId: stale.parentId, reason: StaleReason.CHILD_STALE, source });
    else await reopenMap(tx, emit, stale.mapId);
  }
}

/** A completed map whose root's conclusion went out of date is active again. */
async function reopenMap(tx: Tx, emit: Emit, mapId: string): Promise<void> {
  const reopened = await tx.map.updateMany({
    where: { id: mapId, status: 'COMPLETED' },
    data: { status: 'ACTIVE', version: { increment: 1 } },
  });
  if (reopened.count === 0) return;
  const map = await tx.map.findUniqueOrThrow({ where: { id: mapId } });
  emit({ type: 'MapUpdated', payload: { map: toMapSnapshot(map), fields: ['status'] } });
}

/**
 * What a node's new or changed conclusion makes stale: its parent's conclusion (drawn from its children's)
 * and its dependents' (drawn from their dependencies').
 */
export function staleAfterConclusion(
  node: { id: string; question: string; parentId: string | null },
  dependentIds: readonly string[],
): StaleCause[] {
  const source = { id: node.id, question: node.question };
  return [
    ...(node.parentId ? [{ nodeId: node.parentId, reason: StaleReason.CHILD_CHANGED, source }] : []),
    ...dependentIds.map((nodeId) => ({ nodeId, reason: StaleReason.DEPENDENCY_CHANGED, source })),
  ];
}
