import type { AgentRun, Database, DependedOnNode } from '@thinkingmap/db';
import { readiness } from '@thinkingmap/map-graph';
import type { MapEvent } from '../commands/map-event.ts';

/** The events after which a run waiting for dependencies may be free to start. */
const FREEING = new Set<MapEvent['type']>(['NodeConcluded', 'DependencyRemoved', 'NodeDeleted']);

/** Which of a node's dependencies (in their order among their siblings) are still open, as a waiting run names them. */
export function openDependencies(ordered: readonly DependedOnNode[]): { id: string; question: string }[] {
  return readiness(ordered).openDependencies.map(({ id, question }) => ({ id, question }));
}

/**
 * Runs waiting for dependencies that may start now: on the map of `events` when one of them could have closed
 * the last open dependency (a conclusion, a dependency removed, a node deleted), or on every map when
 * `events` is omitted (recovery: a start that was due when a process stopped). The caller claims each one
 * (see `startWaiting`), re-checking in its transaction.
 */
export async function waitingRunsToStart(
  db: Pick<Database, 'agentReads'>,
  events?: readonly MapEvent[],
): Promise<AgentRun[]> {
  let mapId: string | undefined;
  if (events) {
    mapId = events.find((e) => FREEING.has(e.type))?.mapId;
    if (!mapId) return [];
  }
  const waiting = await db.agentReads.waitingRuns(mapId);
  const ready: AgentRun[] = [];
  for (const run of waiting) {
    if (!run.nodeId || openDependencies(await db.agentReads.dependenciesOf(run.nodeId)).length === 0) ready.push(run);
  }
  return ready;
}
