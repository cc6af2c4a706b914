import type { Db, Tx } from '@thinkingmap/db';
import type { MapEvent, PendingEvent } from './map-event.ts';

/**
 * Appends events to a map's log inside the caller's transaction. The map row's `lastSeq` is bumped, so
 * sequence numbers are consecutive and never reused (the caller holds the map's row lock: `mutateMap`).
 */
export async function appendEvents(tx: Tx, mapId: string, events: readonly PendingEvent[]): Promise<MapEvent[]> {
  if (events.length === 0) return [];
  const { lastSeq } = await tx.map.update({
    where: { id: mapId },
    data: { lastSeq: { increment: events.length } },
    select: { lastSeq: true },
  });
  const first = lastSeq - events.length + 1;
  const createdAt = new Date();
  const stored = events.map(
    (event, i) => ({ ...event, mapId, seq: first + i, createdAt: createdAt.toISOString() }) as MapEvent,
  );
  await tx.event.createMany({
    data: stored.map((event) => ({
      mapId,
      seq: event.seq,
      type: event.type,
      payload: event.payload as object,
      createdAt,
    })),
  });
  return stored;
}

/** Reads stored events of a map with `seq > after`, oldest first. */
export async function readEvents(db: Db, mapId: string, after: number, limit: number): Promise<MapEvent[]> {
  const rows = await db.event.findMany({
    where: { mapId, seq: { gt: after } },
    orderBy: { seq: 'asc' },
    take: limit,
  });
  return rows.map(
    (row) =>
      ({
        type: row.type,
        payload: row.payload,
        mapId: row.mapId,
        seq: row.seq,
        createdAt: row.createdAt.toISOString(),
      }) as MapEvent,
  );
}
