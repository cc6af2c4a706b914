import type { ReadDb } from '@thinkingmap/db';
import { AsyncQueue, finishing } from './async-queue.ts';
import type { EventBus } from './event-bus.ts';
import { readEvents } from './event-log.ts';
import type { MapEvent } from './map-event.ts';

const PAGE = 500;
/** Queued when the bus says events may have been lost: read the log from what was delivered. */
const RESYNC = Symbol('resync');
/** A subscriber this far behind drops its buffer and catches up from the log instead. */
const MAX_BUFFERED = 10_000;

/** Options for {@link mapEventStream}. */
export interface MapEventStreamOptions {
  db: ReadDb;
  bus: EventBus;
  mapId: string;
  /** Replay stored events with `seq > after` first; omitted = only events from now on. */
  after?: number | null;
}

/**
 * The events of one map as a gap-free, duplicate-free sequence: stored events after `after` are replayed
 * from the log, then live ones follow. Listening starts before the log is read, and every live event is
 * checked against the last delivered sequence number: older ones are dropped, a jump is filled from the log.
 */
export function mapEventStream(options: MapEventStreamOptions): AsyncIterableIterator<MapEvent> {
  const { db, bus, mapId } = options;
  const queue = new AsyncQueue<MapEvent | typeof RESYNC>();
  let overflowed = false;
  const stop = bus.listen(
    mapId,
    (event) => {
      if (queue.size >= MAX_BUFFERED) {
        overflowed = true;
        queue.clear();
      }
      queue.push(event);
    },
    () => queue.push(RESYNC),
  );

  async function* run(): AsyncGenerator<MapEvent> {
    let last: number;
    if (options.after === undefined || options.after === null) {
      const map = await db.map.findUnique({ where: { id: mapId }, select: { lastSeq: true } });
      last = map?.lastSeq ?? 0;
    } else {
      last = options.after;
    }
    const catchUp = async function* (until: number) {
      while (last < until) {
        const page = await readEvents(db, mapId, last, Math.min(PAGE, until - last));
        if (page.length === 0) return;
        for (const event of page) {
          last = event.seq;
          yield event;
        }
      }
    };
    if (options.after !== undefined && options.after !== null) yield* catchUp(Number.MAX_SAFE_INTEGER);
    for (;;) {
      const { value, done } = await queue.next();
      if (done) return;
      if (overflowed || value === RESYNC) {
        overflowed = false;
        yield* catchUp(Number.MAX_SAFE_INTEGER);
        if (value === RESYNC) continue;
      }
      if (value.seq <= last) continue;
      if (value.seq > last + 1) yield* catchUp(value.seq - 1);
      last = value.seq;
      yield value;
      if (value.type === 'MapDeleted') return;
    }
  }

  const generator = run();
  const finish = () => {
    stop();
    queue.close();
  };
  return finishing(generator, finish);
}
