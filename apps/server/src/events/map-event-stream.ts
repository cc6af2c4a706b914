import type { ReadDb } from '@thinkingmap/db';
import { map, type Repeater } from 'graphql-yoga';
import { readEvents } from '../commands/event-log.ts';
import type { MapEvent } from '../commands/map-event.ts';
import type { EventBus } from './event-bus.ts';
import { mapTopic } from './live-topics.ts';
import type { TakeTurn } from './replay-turns.ts';
import { sequencedStream } from './sequenced-stream.ts';

/** Options for {@link mapEventStream}. */
export interface MapEventStreamOptions {
  db: ReadDb;
  bus: EventBus;
  mapId: string;
  /** Replay stored events with `seq > after` first; omitted = only events from now on. */
  after?: number | null;
  /** Waits for the stream's turn before each page it replays (see ReplayTurns); none: at once. */
  turn?: TakeTurn;
}

/**
 * The events of one map as a gap-free, duplicate-free stream (see {@link sequencedStream}): stored events after
 * `after` first, then live ones; it ends with the map's MapDeleted.
 */
export function mapEventStream(options: MapEventStreamOptions): Repeater<MapEvent> {
  const { db, bus, mapId } = options;
  const stream = sequencedStream(
    bus,
    {
      topic: mapTopic(mapId),
      seqOf: (event) => event.seq,
      horizon: async () =>
        (await db.map.findUnique({ where: { id: mapId }, select: { lastSeq: true } }))?.lastSeq ?? null,
      read: (after, upTo, limit) => readEvents(db, mapId, after, Math.min(limit, upTo - after)),
      endsWith: (event) => event.type === 'MapDeleted',
      turn: options.turn,
    },
    options.after,
  );
  return map((item: { event: MapEvent }) => item.event)(stream);
}
