import type { Prisma, ReadDb } from '@thinkingmap/db';
import { toMapEvent } from '../commands/event-log.ts';
import type { MapEvent, MapEventType } from '../commands/map-event.ts';
import { feedTopic } from './live-topics.ts';
import type { SequencedLog } from './sequenced-stream.ts';
import type { FeedCursor } from './viewer-cursor.ts';

/** What part of the viewer's feed a client asked for. */
export interface FeedFilters {
  /** Only these maps (still only the viewer's). */
  mapIds?: readonly string[] | null;
  /** Only these event types (the position still moves past the others). */
  types?: readonly MapEventType[] | null;
}

/** The viewer's feed as a sequenced log (`Event.feedSeq`), with the client's filters. */
export interface FeedLog extends SequencedLog {
  /** Where to start after the client's cursor: a position in the feed (0: the feed's start). */
  start: number;
}

/**
 * The log of every event of the maps `viewerId` owns, numbered by `feedSeq` in commit order, filtered as asked. A
 * cursor of the earlier per-map form is translated: the feed is read from the earliest position it names, leaving out
 * what it says was delivered already (a map it names that belongs to someone else contributes nothing).
 */
export async function viewerFeedLog(
  db: ReadDb,
  viewerId: string,
  filters: FeedFilters,
  cursor: FeedCursor | null,
): Promise<FeedLog> {
  const only = filters.mapIds ? new Set(filters.mapIds) : null;
  const types = filters.types ? new Set<string>(filters.types) : null;
  const legacy = cursor && 'perMap' in cursor ? await legacyStart(db, viewerId, cursor.perMap) : null;
  const where: Prisma.EventWhereInput = {
    ownerId: viewerId,
    ...(filters.mapIds ? { mapId: { in: [...filters.mapIds] } } : {}),
    ...(filters.types ? { type: { in: [...filters.types] } } : {}),
    ...(legacy?.delivered.length ? { NOT: legacy.delivered } : {}),
  };
  return {
    topic: feedTopic(viewerId),
    start: legacy ? legacy.start : cursor && 'feedSeq' in cursor ? cursor.feedSeq : 0,
    seqOf: (event) => event.feedSeq ?? 0,
    horizon: async () =>
      (await db.user.findUnique({ where: { id: viewerId }, select: { lastFeedSeq: true } }))?.lastFeedSeq ?? 0,
    async read(after, upTo, limit) {
      const rows = await db.event.findMany({
        where: { ...where, feedSeq: { gt: after, lte: upTo } },
        orderBy: { feedSeq: 'asc' },
        take: limit,
      });
      return rows.map(toMapEvent);
    },
    delivers: (event: MapEvent) => (!only || only.has(event.mapId)) && (!types || types.has(event.type)),
  };
}

/**
 * Where a per-map cursor starts in the viewer's feed: the earliest position of the last events it names (for a map it
 * names at 0, just before the map's first event), and per map what it had delivered, to leave out.
 */
async function legacyStart(db: ReadDb, viewerId: string, perMap: ReadonlyMap<string, number>) {
  const named = [...perMap].map(([mapId, seq]) => ({ mapId, seq: Math.max(seq, 1) }));
  const rows = named.length
    ? await db.event.findMany({
        where: { ownerId: viewerId, OR: named },
        select: { mapId: true, seq: true, feedSeq: true },
      })
    : [];
  const starts = rows.map((row) => (row.feedSeq ?? 0) - (perMap.get(row.mapId) === 0 ? 1 : 0));
  return {
    start: starts.length ? Math.min(...starts) : 0,
    delivered: rows.map((row) => ({ mapId: row.mapId, seq: { lte: perMap.get(row.mapId) ?? 0 } })),
  };
}
