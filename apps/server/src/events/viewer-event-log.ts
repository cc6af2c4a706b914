import type { ReadDb } from '@thinkingmap/db';
import { toMapEvent } from './event-log.ts';
import type { MapEventType } from './map-event.ts';
import { missedDeletions } from './missed-deletions.ts';
import { encodeFeedCursor, type FeedPositions } from './viewer-cursor.ts';
import type { FeedItem } from './viewer-event-stream.ts';

/** Options of {@link readViewerEvents}. */
export interface ViewerEventPageOptions {
  viewerId: string;
  /** Where the previous page ended; omitted = from the start of every map. */
  after?: FeedPositions | null;
  mapIds?: readonly string[] | null;
  types?: readonly MapEventType[] | null;
  first: number;
}

/** A page of the viewer-wide feed; `endCursor` resumes after it (as a page's `after` or the subscription's). */
export interface ViewerEventPage {
  edges: FeedItem[];
  endCursor: string;
  hasMore: boolean;
}

/**
 * Stored events of every map the viewer owns after the cursor's per-map positions, in commit order (the log's row
 * id: per map, the same order as `seq`), one SQL query; a map the cursor names that the viewer deleted since ends
 * with its MapDeleted and leaves the cursor.
 */
export async function readViewerEvents(db: ReadDb, options: ViewerEventPageOptions): Promise<ViewerEventPage> {
  const maps = await db.map.findMany({
    where: { ownerId: options.viewerId, ...(options.mapIds ? { id: { in: [...options.mapIds] } } : {}) },
    select: { id: true },
  });
  const positions: FeedPositions = new Map(maps.map((map) => [map.id, options.after?.get(map.id) ?? 0]));
  const only = options.mapIds ? new Set(options.mapIds) : null;
  const deletions = missedDeletions(options.viewerId, options.after, new Set(positions.keys()), only).filter(
    (deletion) => !options.types || options.types.includes(deletion.type),
  );
  if (positions.size === 0 && deletions.length === 0) {
    return { edges: [], endCursor: encodeFeedCursor(positions), hasMore: false };
  }
  const rows = await db.event.findMany({
    where: {
      OR: [
        ...[...positions].map(([mapId, seq]) => ({
          mapId,
          seq: { gt: seq },
          ...(options.types ? { type: { in: [...options.types] } } : {}),
        })),
        ...deletions,
      ],
    },
    orderBy: { id: 'asc' },
    take: options.first + 1,
  });
  const edges = rows.slice(0, options.first).map((row) => {
    const event = toMapEvent(row);
    if (event.type === 'MapDeleted') positions.delete(event.mapId);
    else positions.set(event.mapId, event.seq);
    return { cursor: encodeFeedCursor(positions), event };
  });
  return { edges, endCursor: encodeFeedCursor(positions), hasMore: rows.length > options.first };
}
