import { Repeater } from 'graphql-yoga';
import type { MapEvent } from '../commands/map-event.ts';
import type { EventBus } from './event-bus.ts';
import { type LiveItem, RESYNC, type Topic } from './live-topics.ts';
import type { TakeTurn } from './replay-turns.ts';

/** Stored events read from the log at a time while catching up. */
const PAGE = 100;

/**
 * A log whose events are numbered consecutively in commit order: one map's events (`seq`), or one owner's feed
 * (`feedSeq`). Every number up to the log's {@link SequencedLog.horizon} is committed and readable.
 */
export interface SequencedLog {
  /** Where the log's events are published live. */
  topic: Topic;
  /** The event's number in this log. */
  seqOf(event: MapEvent): number;
  /** The highest number committed now; null when the log is closed (a deleted map: everything left is stored). */
  horizon(): Promise<number | null>;
  /** Stored events numbered after `after` and at most `upTo`, in order, at most `limit`, that the stream delivers. */
  read(after: number, upTo: number, limit: number): Promise<MapEvent[]>;
  /** Whether a live event is one the stream delivers (a filter); the position moves past the others. Default all. */
  delivers?(event: MapEvent): boolean;
  /** Whether the stream ends after delivering this event (a map's MapDeleted). */
  endsWith?(event: MapEvent): boolean;
  /** Waits for this stream's turn to read and deliver a page of stored events (see ReplayTurns); none: at once. */
  turn?: TakeTurn;
}

/** A delivered event and the log's number the stream has reached with it. */
export interface Sequenced {
  event: MapEvent;
  position: number;
}

/**
 * The events of a sequenced log as a gap-free, duplicate-free stream: stored events after `after` are read from the
 * log, then live ones follow. Listening starts before the log is read, and every live event is checked against the
 * last number reached: older ones are dropped, a jump is filled from the log, and a resync (Redis reconnected, the log
 * moved past what arrived) reads the log again. `after` omitted: live events only, from the log's current horizon.
 * Returning the stream releases its live subscription at once, also while it waits for an event. Each page of stored
 * events is read and delivered in the log's turn (`turn`), so that replays share the instance fairly.
 */
export function sequencedStream(bus: EventBus, log: SequencedLog, after?: number | null): Repeater<Sequenced> {
  return new Repeater<Sequenced>(async (push, stop) => {
    const live = bus.subscribe(log.topic);
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      void live.return();
    });
    try {
      for await (const item of follow(live, log, after)) {
        if (stopped) break;
        await push(item);
      }
    } finally {
      await live.return();
      stop();
    }
  });
}

async function* follow(
  live: Repeater<LiveItem>,
  log: SequencedLog,
  after: number | null | undefined,
): AsyncGenerator<Sequenced> {
  // The first `next()` starts listening (the pub/sub's subscription is lazy); its result is used below.
  let pending = live.next();
  let last = after ?? (await log.horizon()) ?? 0;
  const delivers = log.delivers ?? (() => true);
  const turn = log.turn ?? (async () => () => {});

  /** Reads stored events up to `until` (the log's horizon when omitted), moving `last` past everything read. */
  async function* catchUp(until?: number): AsyncGenerator<Sequenced> {
    const upTo = until ?? (await log.horizon()) ?? Number.MAX_SAFE_INTEGER;
    while (last < upTo) {
      const release = await turn();
      try {
        const page = await log.read(last, upTo, PAGE);
        for (const event of page) {
          last = log.seqOf(event);
          yield { event, position: last };
        }
        if (page.length < PAGE) {
          if (upTo !== Number.MAX_SAFE_INTEGER) last = upTo;
          return;
        }
      } finally {
        release();
      }
    }
  }

  if (after !== undefined && after !== null) {
    for await (const item of catchUp()) {
      yield item;
      if (log.endsWith?.(item.event)) return;
    }
  }
  for (;;) {
    const { value, done } = await pending;
    if (done) return;
    pending = live.next();
    if (value === RESYNC) {
      for await (const item of catchUp()) {
        yield item;
        if (log.endsWith?.(item.event)) return;
      }
      continue;
    }
    for (const event of value) {
      const seq = log.seqOf(event);
      if (seq <= last) continue;
      if (seq > last + 1) {
        for await (const item of catchUp(seq - 1)) {
          yield item;
          if (log.endsWith?.(item.event)) return;
        }
      }
      last = seq;
      if (delivers(event)) yield { event, position: last };
      if (log.endsWith?.(event)) return;
    }
  }
}
