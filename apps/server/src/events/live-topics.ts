import { setMaxListeners } from 'node:events';
import { Repeater, SlidingBuffer } from 'graphql-yoga';
import type { MapEvent } from '../commands/map-event.ts';

/** What a stream follows live: one map's events, or every event of the maps one person owns (their feed). */
export type Topic = `map:${string}` | `feed:${string}`;

/** The topic of one map's events. */
export const mapTopic = (mapId: string): Topic => `map:${mapId}`;

/** The topic of every event of the maps `ownerId` owns. */
export const feedTopic = (ownerId: string): Topic => `feed:${ownerId}`;

/** In a live subscription: events may have been lost (Redis reconnected, or the log moved past what arrived). */
export const RESYNC = Symbol('resync');

/** What a live subscription yields: a command's events, or {@link RESYNC}. */
export type LiveItem = readonly MapEvent[] | typeof RESYNC;

/**
 * Batches a live subscription keeps for a consumer that is behind. Beyond it the oldest are dropped: the consumer
 * sees a jump in sequence numbers and reads what it missed from the log, so a slow client costs bounded memory.
 */
const LIVE_BUFFER = 1_000;

/** A command's events dispatched on a topic. */
class BatchEvent extends Event {
  constructor(
    topic: Topic,
    readonly batch: readonly MapEvent[],
  ) {
    super(topic);
  }
}

/** One topic followed on this instance: its subscribers' resync calls, and the highest sequence number received. */
interface Followed {
  subscribers: Set<() => void>;
  received: number;
}

/** Where an event stands in a topic's sequence: its map's `seq`, or its owner's `feedSeq`. */
function seqIn(topic: Topic, event: MapEvent): number {
  return topic.startsWith('map:') ? event.seq : (event.feedSeq ?? 0);
}

/**
 * The live subscriptions of one instance, by topic: each is a Repeater with a bounded buffer listening on an
 * EventTarget, and the topic's highest received sequence number is kept while anyone follows it (the gap watch compares
 * it with the log). Nothing is kept for a topic nobody follows.
 * Why not graphql-yoga's `createPubSub().subscribe`: a subscriber with 1,024 unread pushes makes the publisher's
 * dispatch throw (an uncaught exception that ends the process), and its `repeaterBuffer` is one buffer shared by every
 * subscription.
 */
export class LiveTopics {
  readonly #topics = new Map<Topic, Followed>();
  readonly #target = new EventTarget();

  constructor() {
    // Many subscribers of one topic are ordinary (every client watching a map); the subscription caps bound them, and
    // Node's warning past 10 listeners would only fill the log.
    setMaxListeners(0, this.#target);
  }

  /**
   * Live events of `topic`, from the first `next()` on. A consumer that falls {@link LIVE_BUFFER} batches behind loses
   * the oldest (and fills the gap from the log); {@link LiveTopics.resync} puts {@link RESYNC} in the way. Returning
   * the iterator releases everything it held.
   */
  subscribe(topic: Topic): Repeater<LiveItem> {
    const topics = this.#topics;
    const target = this.#target;
    return new Repeater<LiveItem>(async (push, stop) => {
      let followed = topics.get(topic);
      if (!followed) {
        followed = { subscribers: new Set(), received: 0 };
        topics.set(topic, followed);
      }
      // With a sliding buffer `push` never waits and never queues beyond the buffer.
      const resync = () => void push(RESYNC);
      const listener = (event: Event) => {
        if (event instanceof BatchEvent) void push(event.batch);
      };
      followed.subscribers.add(resync);
      target.addEventListener(topic, listener);
      await stop;
      target.removeEventListener(topic, listener);
      followed.subscribers.delete(resync);
      if (followed.subscribers.size === 0 && topics.get(topic) === followed) topics.delete(topic);
    }, new SlidingBuffer(LIVE_BUFFER));
  }

  /** Delivers a command's events to the subscribers of their map and of their owner's feed. */
  publish(events: readonly MapEvent[]): void {
    const first = events[0];
    if (!first) return;
    for (const topic of [mapTopic(first.mapId), ...(first.ownerId ? [feedTopic(first.ownerId)] : [])]) {
      const followed = this.#topics.get(topic);
      if (!followed) continue;
      for (const event of events) followed.received = Math.max(followed.received, seqIn(topic, event));
      this.#target.dispatchEvent(new BatchEvent(topic, events));
    }
  }

  /** Subscriptions open to `topic`, or to any topic. */
  count(topic?: Topic): number {
    if (topic !== undefined) return this.#topics.get(topic)?.subscribers.size ?? 0;
    let total = 0;
    for (const followed of this.#topics.values()) total += followed.subscribers.size;
    return total;
  }

  /** The topics followed here, each with the highest sequence number received on it. */
  followed(): Map<Topic, number> {
    return new Map([...this.#topics].map(([topic, followed]) => [topic, followed.received]));
  }

  /** Puts {@link RESYNC} in the way of every subscriber of these topics (all when omitted). */
  resync(which?: Iterable<Topic>): void {
    for (const topic of which ?? [...this.#topics.keys()]) {
      for (const resync of this.#topics.get(topic)?.subscribers ?? []) resync();
    }
  }
}
