import type { Database } from '@thinkingmap/db';
import type { MapEvent } from '../commands/map-event.ts';
import type { AutoStart } from './auto-start.ts';

/** A node's conclusion is current when it is concluded and not out of date. */
const current = (node: { status: string; staleReason: string | null }) =>
  node.status === 'COMPLETED' && node.staleReason === null;

/**
 * Which nodes' conclusions should start by themselves after `events` (on a map whose `autoRun` is on), each
 * drafted for the person's review, never accepted without them:
 * - bottom-up: a node not concluded yet, once every one of its children is concluded and current;
 * - redraft: a node whose conclusion is out of date, once everything it concludes from (its children and
 *   the siblings it depends on) is concluded and current, so stale conclusions are redone from the bottom up.
 * Both also wait for the node's dependencies to be concluded and current. Candidates are the nodes the events
 * touch: the parent and the dependents of a node just concluded, and every node just marked stale. Each comes
 * with what set it off (recorded as a decision of its run).
 *
 * A divergent session's nodes (summaries, tasks, final output) are its own: the session writes their
 * conclusions, so they never start a conclusion — neither theirs nor, by concluding, their parent's or their
 * dependents' (a divergent session asks the person only for its level reviews).
 */
export async function conclusionsToStart(
  read: Database['read'],
  events: readonly MapEvent[],
): Promise<({ nodeId: string } & AutoStart)[]> {
  const candidates = new Set<string>();
  const concluded: string[] = [];
  for (const event of events) {
    if ((event.type === 'NodeStale' || event.type === 'NodeConcluded') && event.payload.node.divergentRole) continue;
    if (event.type === 'NodeStale') candidates.add(event.payload.node.id);
    if (event.type !== 'NodeConcluded') continue;
    if (event.payload.node.parentId) candidates.add(event.payload.node.parentId);
    concluded.push(event.payload.node.id);
  }
  if (concluded.length) {
    const dependents = await read.dependency.findMany({
      where: { dependsOnId: { in: concluded } },
      select: { nodeId: true },
    });
    for (const d of dependents) candidates.add(d.nodeId);
  }
  if (candidates.size === 0) return [];
  const nodes = await read.node.findMany({
    where: { id: { in: [...candidates] } },
    select: {
      id: true,
      status: true,
      staleReason: true,
      divergentRole: true,
      children: { select: { status: true, staleReason: true } },
      dependencies: { select: { dependsOn: { select: { status: true, staleReason: true } } } },
    },
  });
  return nodes
    .filter((node) => node.divergentRole === null)
    .filter((node) => node.staleReason !== null || (node.status !== 'COMPLETED' && node.children.length > 0))
    .filter((node) => node.children.every(current) && node.dependencies.every((d) => current(d.dependsOn)))
    .map((node) => ({ nodeId: node.id, trigger: node.staleReason === null ? 'BOTTOM_UP' : 'REDRAFT' }));
}
