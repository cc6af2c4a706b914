import type { ChangeKind, MapLog, ReadDb, Tx } from '@thinkingmap/db';
import { decodePayload, EVENT_CONTRACTS } from './event-contracts.ts';
import type { MapEvent, MapEventType, PendingEvent } from './map-event.ts';

/**
 * Who made a change and what kind of change it is, stored on each of its events; the events of one command
 * share `changeSeq` (the first one's sequence number).
 */
export interface ChangeMeta {
  actorId: string;
  runId: string | null;
  step: string | null;
  changeKind: ChangeKind;
  revertsSeq: number | null;
}

/**
 * An event as its listeners get it (the bus, subscriptions, the `events` query and the viewer's feed): what
 * only the history reads stays in the log. That is a deletion's archive of the conversations and context items
 * it removed, which can weigh megabytes for a large subtree.
 */
export function forListeners(event: MapEvent): MapEvent {
  if (event.type !== 'NodeDeleted' || event.payload.archive === undefined) return event;
  const { archive: _, ...payload } = event.payload;
  return { ...event, payload };
}

/**
 * Appends events to a map's log inside the caller's transaction, each with its type's contract version, and
 * returns them as their listeners get them ({@link forListeners}).
 * Sequence numbers follow the map's `lastSeq` as read under its row lock (`mutateMap`), so they are
 * consecutive and never reused; the map's `lastSeq` moves on with them (a map deleted in the same
 * transaction keeps its last events, MapDeleted included, in the log).
 */
export async function appendEvents(
  log: MapLog,
  tx: Tx,
  map: { id: string; ownerId: string; lastSeq: number },
  events: readonly PendingEvent[],
  meta?: ChangeMeta,
): Promise<MapEvent[]> {
  if (events.length === 0) return [];
  const mapId = map.id;
  const lastSeq = map.lastSeq + events.length;
  const first = lastSeq - events.length + 1;
  const createdAt = new Date();
  const firstFeedSeq = await log.append(
    tx,
    map,
    lastSeq,
    events.map((event, i) => ({
      seq: first + i,
      type: event.type,
      version: EVENT_CONTRACTS[event.type].version,
      payload: event.payload,
      createdAt,
      ...(meta ? { ...meta, changeSeq: first } : {}),
    })),
  );
  const stored = events.map(
    (event, i): MapEvent => ({
      ...event,
      mapId,
      seq: first + i,
      createdAt: createdAt.toISOString(),
      ownerId: map.ownerId,
      feedSeq: firstFeedSeq + i,
    }),
  );
  return stored.map(forListeners);
}

/**
 * Reads stored events of a map with `seq > after`, oldest first. Each payload is upgraded to its type's
 * current version and parsed against its contract; a payload that cannot be read throws `EventContractError`.
 */
export async function readEvents(db: ReadDb, mapId: string, after: number, limit: number): Promise<MapEvent[]> {
  const rows = await db.event.findMany({
    where: { mapId, seq: { gt: after } },
    orderBy: { seq: 'asc' },
    take: limit,
  });
  return rows.map(toMapEvent);
}

/** A stored event row, as read from the log. */
export interface EventRow {
  mapId: string;
  seq: number;
  ownerId: string | null;
  feedSeq: number | null;
  type: string;
  version: number;
  payload: unknown;
  createdAt: Date;
}

/** A stored event row as its listeners get it ({@link forListeners}), its payload upgraded and parsed. */
export function toMapEvent(row: EventRow): MapEvent {
  return forListeners(toLoggedEvent(row));
}

/**
 * A stored event row with all the log keeps of it (a deletion's archive included), its payload upgraded to its
 * type's current version and parsed: what the map's history folds.
 */
export function toLoggedEvent(row: EventRow): MapEvent {
  return {
    type: row.type,
    payload: decodePayload(row as typeof row & { type: MapEventType }, row.payload),
    mapId: row.mapId,
    seq: row.seq,
    createdAt: row.createdAt.toISOString(),
    ownerId: row.ownerId,
    feedSeq: row.feedSeq,
  } as MapEvent;
}
