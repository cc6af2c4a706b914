import type { FeedPositions } from './viewer-cursor.ts';

/** A filter of the event log (Prisma's `where` for one map's MapDeleted after a position). */
export interface DeletionFilter {
  mapId: string;
  type: 'MapDeleted';
  actorId: string;
  seq: { gt: number };
}

/**
 * The viewer-wide feed's way to tell a returning client about maps deleted while it was away: for each map its cursor
 * names that no longer exists (`existing` holds the viewer's maps that do), a filter for that map's MapDeleted after
 * the cursor's position — only a deletion the viewer made, so a cursor naming another person's map learns nothing.
 * The log keeps MapDeleted after the map's rows are gone (see `deleteMap`).
 */
export function missedDeletions(
  viewerId: string,
  after: FeedPositions | null | undefined,
  existing: ReadonlySet<string>,
  only: ReadonlySet<string> | null,
): DeletionFilter[] {
  if (!after) return [];
  return [...after]
    .filter(([mapId]) => !existing.has(mapId) && (!only || only.has(mapId)))
    .map(([mapId, seq]) => ({ mapId, type: 'MapDeleted', actorId: viewerId, seq: { gt: seq } }));
}
