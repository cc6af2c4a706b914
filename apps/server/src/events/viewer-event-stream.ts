import type { ReadDb } from '@thinkingmap/db';
import { AsyncQueue, finishing } from './async-queue.ts';
import type { EventBus } from './event-bus.ts';
import { toMapEvent } from './event-log.ts';
import type { MapEvent, MapEventType } from './map-event.ts';
import { mapEventStream } from './map-event-stream.ts';
import { missedDeletions } from './missed-deletions.ts';
import { encodeFeedCursor, type FeedPositions } from './viewer-cursor.ts';

/** An event of the viewer-wide feed with the cursor to resume right after it. */
export interface FeedItem {
  cursor: string;
  event: MapEvent;
}

/** Options of {@link viewerEventStream}. */
export interface ViewerEventStreamOptions {
  db: ReadDb;
  bus: EventBus;
  viewerId: string;
  /** Where to resume (a decoded cursor); omitted = live events only, from each map's current `lastSeq`. */
  after?: FeedPositions | null;
  /** Only these maps (still only the viewer's). */
  mapIds?: readonly string[] | null;
  /** Only these event types (the cursor still moves past the others). */
  types?: readonly MapEventType[] | null;
}

/**
 * Every event of every map the viewer owns, as one feed: one {@link mapEventStream} per map (the same replay, gap
 * filling and per-map order), merged as they come. Maps created later join from their first event; a deleted map's
 * stream ends with its MapDeleted and the map leaves the cursor (also when the deletion came while the client was
 * away: resuming with a cursor that names the map delivers its MapDeleted). Each item carries the cursor of everything delivered
 * up to it, so resuming with the last cursor received misses nothing and repeats nothing.
 */
export function viewerEventStream(options: ViewerEventStreamOptions): AsyncIterableIterator<FeedItem> {
  const { db, bus, viewerId } = options;
  const only = options.mapIds ? new Set(options.mapIds) : null;
  const types = options.types ? new Set<string>(options.types) : null;
  const merged = new AsyncQueue<MapEvent | Error>();
  const streams = new Map<string, AsyncIterableIterator<MapEvent>>();
  const positions: FeedPositions = new Map();
  let closed = false;

  const follow = (mapId: string, after: number | null) => {
    if (closed || streams.has(mapId) || (only && !only.has(mapId))) return;
    const stream = mapEventStream({ db, bus, mapId, after });
    streams.set(mapId, stream);
    void (async () => {
      try {
        for await (const event of stream) merged.push(event);
      } catch (error) {
        merged.push(error instanceof Error ? error : new Error(String(error)));
      }
    })();
  };
  // Listening for new maps starts before the viewer's maps are listed: one created in between is followed too.
  const discovered: string[] = [];
  let listed = false;
  const stopDiscovery = bus.listenAll((event) => {
    if (event.type !== 'MapCreated' || streams.has(event.mapId)) return;
    if (!listed) return void discovered.push(event.mapId);
    void isOwn(event.mapId).then((own) => own && follow(event.mapId, 0));
  });
  const isOwn = async (mapId: string) =>
    (await db.map.findUnique({ where: { id: mapId }, select: { ownerId: true } }))?.ownerId === viewerId;

  const start = (async () => {
    const maps = await db.map.findMany({
      where: { ownerId: viewerId, ...(only ? { id: { in: [...only] } } : {}) },
      select: { id: true, lastSeq: true },
    });
    for (const map of maps) {
      const after = options.after ? (options.after.get(map.id) ?? 0) : map.lastSeq;
      positions.set(map.id, after);
      follow(map.id, after);
    }
    // Maps the cursor names that were deleted while the client was away end with their MapDeleted.
    const deletions = missedDeletions(viewerId, options.after, new Set(positions.keys()), only);
    if (deletions.length) {
      for (const row of await db.event.findMany({ where: { OR: deletions } })) merged.push(toMapEvent(row));
    }
    listed = true;
    for (const mapId of discovered) if (!streams.has(mapId) && (await isOwn(mapId))) follow(mapId, 0);
  })();

  async function* run(): AsyncGenerator<FeedItem> {
    await start;
    for (;;) {
      const { value, done } = await merged.next();
      if (done) return;
      if (value instanceof Error) throw value;
      if (value.type === 'MapDeleted') positions.delete(value.mapId);
      else positions.set(value.mapId, value.seq);
      if (types && !types.has(value.type)) continue;
      yield { cursor: encodeFeedCursor(positions), event: value };
    }
  }

  const generator = run();
  const finish = () => {
    if (closed) return;
    closed = true;
    stopDiscovery();
    for (const stream of streams.values()) void stream.return?.();
    merged.close();
  };
  return finishing(generator, finish);
}
