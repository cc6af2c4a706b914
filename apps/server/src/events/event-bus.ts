import { randomUUID } from 'node:crypto';
import type { Repeater } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { MapEvent } from '../commands/map-event.ts';
import { type LiveItem, LiveTopics, mapTopic, RESYNC, type Topic } from './live-topics.ts';

export { feedTopic, type LiveItem, mapTopic, RESYNC, type Topic } from './live-topics.ts';

/**
 * A message for every instance that is not a map event: a revoked token (each instance forgets it and closes
 * what it has open for it), or a map's row changed without an event (the token ledger: each instance forgets the
 * map's version it knew, see `http/map-versions.ts`).
 */
export type BusSignal = { type: 'token-revoked'; tokenId: string } | { type: 'map-row-changed'; mapId: string };

/** Delivers committed events to their subscribers, in this process or (with Redis) in all of them. */
export interface EventBus {
  /** Publishes events of one command, already committed to the log, to their map's topic and their owner's feed. */
  publish(events: readonly MapEvent[]): void;
  /**
   * Live events of a topic, one batch per command, bounded (see {@link LiveTopics.subscribe}). Listening starts with
   * the first `next()`: a stream calls it before it reads the log, so nothing committed after the read is missed.
   */
  subscribe(topic: Topic): Repeater<LiveItem>;
  /**
   * Calls `listener` with each live event of a map from now on, for code that wakes up on events (no replay and no
   * gap filling: delivering events is the streams' job). Returns the stop.
   */
  listen(mapId: string, listener: (event: MapEvent) => void): () => void;
  /**
   * Calls `listener` with every batch delivered on this instance, at once: a batch published here before `publish`
   * returns (so before the command's response), one from another instance as it arrives. Returns the stop.
   */
  onDelivered(listener: (events: readonly MapEvent[]) => void): () => void;
  /**
   * Whether every event committed from now on reaches this instance: always in-process; with Redis, while the
   * subscription is active (from a lost connection until it is subscribed again and `reconnected` listeners are told).
   */
  live(): boolean;
  /** Subscriptions open on this instance (on one map's topic when given), for health, benchmarks and tests. */
  listenerCount(mapId?: string): number;
  /** Subscriptions open on this instance to an owner's feed. */
  feedListenerCount(ownerId: string): number;
  /** The topics followed here, each with the highest sequence number received on it (0 before any). */
  followed(): Map<Topic, number>;
  /** Tells the subscribers of these topics (all when omitted) to read the log again: events may have been lost. */
  resync(topics?: Iterable<Topic>): void;
  /** Sends a signal to every instance, this one included. */
  signal(signal: BusSignal): void;
  /** Receives every signal; `reconnected` is called after Redis came back (signals may be lost). Returns the stop. */
  onSignal(listener: (signal: BusSignal) => void, reconnected?: () => void): () => void;
  /** Resolves when the bus can carry events now (Redis connected and answering within `timeoutMs`); rejects with why not. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link createEventBus}. */
export interface EventBusOptions {
  /** Share events between instances through Redis pub/sub; in-process only when omitted. */
  redisUrl?: string;
  /**
   * The Redis pub/sub channel (`thinkingmap:map-events` by default). Instances share events only on the same
   * channel; tests that run side by side on one Redis give each file its own.
   */
  channel?: string;
  /** Called with every batch published by this instance (metrics). */
  onPublished?: (events: readonly MapEvent[]) => void;
  /** Where a failing listener, a lost Redis message or a Redis connection error is reported. */
  logError: (error: unknown) => void;
}

const DEFAULT_CHANNEL = 'thinkingmap:map-events';

/** What one instance sends the others over Redis. */
type RedisMessage = { from: string; events?: MapEvent[]; signal?: BusSignal };

/**
 * Creates the bus: {@link LiveTopics} fans events out to the subscriptions of this process; with `redisUrl`, each
 * batch also goes to the other instances over one Redis pub/sub channel and theirs come in here.
 * Why not `@graphql-yoga/redis-event-target`: it routes an instance's own events through Redis (none arrive while Redis
 * is down, token revocations included), and leaves a failed PUBLISH or SUBSCRIBE as an unhandled rejection.
 */
export function createEventBus(options: EventBusOptions): EventBus {
  const { logError } = options;
  const channel = options.channel ?? DEFAULT_CHANNEL;
  const topics = new LiveTopics();
  const signalListeners = new Set<(signal: BusSignal) => void>();
  const reconnectedListeners = new Set<() => void>();
  const deliveredListeners = new Set<(events: readonly MapEvent[]) => void>();
  const deliver = (events: readonly MapEvent[]) => {
    for (const listener of deliveredListeners) {
      try {
        listener(events);
      } catch (error) {
        logError(error);
      }
    }
    topics.publish(events);
  };
  const dispatchSignal = (signal: BusSignal) => {
    // One failing listener must not keep the signal from the others.
    for (const listener of signalListeners) {
      try {
        listener(signal);
      } catch (error) {
        logError(error);
      }
    }
  };
  const instanceId = randomUUID();
  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  let subscribed = !options.redisUrl;
  if (options.redisUrl) {
    publisher = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
    subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
    for (const client of [publisher, subscriber]) client.on('error', logError);
    const redis = subscriber;
    redis
      .subscribe(channel)
      .then(() => {
        subscribed = true;
      })
      .catch(logError);
    redis.on('close', () => {
      subscribed = false;
    });
    // After a reconnection, whatever was published meanwhile never arrives: once the subscription is active again
    // (our SUBSCRIBE is answered after ioredis' own resubscription), every subscriber reads the log again.
    let connectedBefore = false;
    redis.on('ready', () => {
      if (!connectedBefore) {
        connectedBefore = true;
        return;
      }
      redis
        .subscribe(channel)
        .then(() => {
          subscribed = true;
          topics.resync();
          for (const reconnected of reconnectedListeners) reconnected();
        })
        .catch(logError);
    });
    redis.on('message', (_channel: string, raw: string) => {
      let message: RedisMessage;
      try {
        message = JSON.parse(raw);
      } catch (error) {
        return logError(error);
      }
      if (message.from === instanceId) return;
      if (message.signal) dispatchSignal(message.signal);
      if (message.events) deliver(message.events);
    });
  }
  const send = (message: Omit<RedisMessage, 'from'>) => {
    // A lost message is recovered by the streams' gap filling from the event log; it is still reported.
    publisher?.publish(channel, JSON.stringify({ from: instanceId, ...message })).catch(logError);
  };
  return {
    publish(events) {
      if (events.length === 0) return;
      options.onPublished?.(events);
      deliver(events);
      send({ events: [...events] });
    },
    subscribe: (topic) => topics.subscribe(topic),
    listen(mapId, listener) {
      const live = topics.subscribe(mapTopic(mapId));
      // The loop's first `next()` runs before its first await: listening starts now.
      void (async () => {
        for await (const batch of live) {
          if (batch === RESYNC) continue;
          for (const event of batch) {
            try {
              listener(event);
            } catch (error) {
              logError(error);
            }
          }
        }
      })();
      return () => void live.return();
    },
    onDelivered(listener) {
      deliveredListeners.add(listener);
      return () => void deliveredListeners.delete(listener);
    },
    live: () => subscribed && (!subscriber || subscriber.status === 'ready'),
    listenerCount: (mapId) => topics.count(mapId === undefined ? undefined : `map:${mapId}`),
    feedListenerCount: (ownerId) => topics.count(`feed:${ownerId}`),
    followed: () => topics.followed(),
    resync: (which) => topics.resync(which),
    signal(signal) {
      dispatchSignal(signal);
      send({ signal });
    },
    onSignal(listener, reconnected) {
      signalListeners.add(listener);
      if (reconnected) reconnectedListeners.add(reconnected);
      return () => {
        signalListeners.delete(listener);
        if (reconnected) reconnectedListeners.delete(reconnected);
      };
    },
    async ping(timeoutMs) {
      for (const [role, client] of [
        ['publisher', publisher],
        ['subscriber', subscriber],
      ] as const) {
        if (client && client.status !== 'ready') throw new Error(`Redis ${role} connection is ${client.status}`);
      }
      if (!publisher) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer PING within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([publisher.ping(), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await Promise.all(
        // quit() waits for pending replies; a client that cannot reach Redis is simply disconnected.
        [publisher, subscriber].filter((c): c is Redis => !!c).map((c) => c.quit().catch(() => c.disconnect())),
      );
    },
  };
}
