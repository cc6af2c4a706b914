import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { MapEvent } from './map-event.ts';

/** Receives the committed events of one map, in sequence order as published. */
export type EventListener = (event: MapEvent) => void;

/**
 * A message for every instance that is not a map event: a revoked token (each instance forgets it and closes
 * what it has open for it).
 */
export type BusSignal = { type: 'token-revoked'; tokenId: string };

/** Delivers committed events to the listeners of a map, in this process or (with Redis) in all of them. */
export interface EventBus {
  /** Publishes events that are already committed to the event log. */
  publish(events: readonly MapEvent[]): void;
  /**
   * Starts listening at once (no event published after this call is missed locally); returns the stop.
   * `onResync` is called when events of the map may have been lost (Redis reconnected, or the map's `lastSeq`
   * moved past what this instance received): the listener re-reads the log from what it delivered.
   */
  listen(mapId: string, listener: EventListener, onResync?: () => void): () => void;
  /**
   * Receives every event of every map that reaches this instance (the viewer-wide feed learns of new maps from their
   * MapCreated); returns the stop. Redis may drop an event: per-map streams recover from the log, not this.
   */
  listenAll(listener: EventListener): () => void;
  /** Number of listeners (of one map when given), for health, benchmarks and tests that wait for a subscriber. */
  listenerCount(mapId?: string): number;
  /** The maps listened to here, with the highest sequence number received for each (0 before any). */
  listenedMaps(): Map<string, number>;
  /** Tells the listeners of these maps (all maps when omitted) to re-read the log; see `listen`. */
  resync(mapIds?: Iterable<string>): void;
  /** Sends a signal to every instance, this one included. */
  signal(signal: BusSignal): void;
  /** Receives every signal; returns the stop. `reconnected` is called after Redis came back (signals may be lost). */
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
  /** Where a failing listener, a lost Redis message or a Redis connection error is reported. */
  logError: (error: unknown) => void;
}

const DEFAULT_CHANNEL = 'thinkingmap:map-events';

/**
 * Creates the bus. In-process by default. With `redisUrl`, events are also sent over Redis pub/sub (one
 * channel, subscribed once at start) so several server instances share them; local listeners get local
 * events at once and Redis copies of them are ignored. Redis gives no delivery guarantee: subscription
 * streams fill gaps from the log, and the read cache checks the map's `lastSeq` instead of listening.
 *
 * Why not graphql-yoga's `createPubSub` with `@graphql-yoga/redis-event-target`: its Redis target subscribes
 * per topic without telling when the SUBSCRIBE took effect (a new subscriber could miss an event it is owed),
 * sends an instance's own events back through Redis before local listeners get them, and leaves a failed
 * PUBLISH as an unhandled rejection (which stops Node). Streams need a callback registered synchronously
 * before they read the log, which a lazily started Repeater only gives through a first `next()`.
 */
export function createEventBus(options: EventBusOptions): EventBus {
  const { logError } = options;
  const channel = options.channel ?? DEFAULT_CHANNEL;
  type Entry = { listener: EventListener; onResync?: () => void };
  const listeners = new Map<string, Set<Entry>>();
  const received = new Map<string, number>();
  const allListeners = new Set<EventListener>();
  const signalListeners = new Set<{ listener: (signal: BusSignal) => void; reconnected?: () => void }>();
  let count = 0;
  // One failing listener must not keep the event from the others, nor fail the command that published.
  const safely = (call: () => void) => {
    try {
      call();
    } catch (error) {
      logError(error);
    }
  };
  const dispatch = (event: MapEvent) => {
    for (const listener of allListeners) safely(() => listener(event));
    const set = listeners.get(event.mapId);
    if (!set) return;
    if (event.seq > (received.get(event.mapId) ?? 0)) received.set(event.mapId, event.seq);
    for (const { listener } of set) safely(() => listener(event));
  };
  const dispatchSignal = (signal: BusSignal) => {
    for (const { listener } of signalListeners) safely(() => listener(signal));
  };
  const resync = (mapIds?: Iterable<string>) => {
    for (const mapId of mapIds ?? [...listeners.keys()]) {
      for (const { onResync } of listeners.get(mapId) ?? []) if (onResync) safely(onResync);
    }
  };
  const instanceId = randomUUID();
  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  if (options.redisUrl) {
    publisher = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
    subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
    for (const client of [publisher, subscriber]) client.on('error', logError);
    const redis = subscriber;
    redis.subscribe(channel).catch(logError);
    // After a reconnection, whatever was published meanwhile never arrives: once the subscription is active
    // again (our SUBSCRIBE is answered after ioredis' own resubscription), every listener re-reads the log.
    let connectedBefore = false;
    redis.on('ready', () => {
      if (!connectedBefore) {
        connectedBefore = true;
        return;
      }
      redis
        .subscribe(channel)
        .then(() => {
          resync();
          for (const { reconnected } of signalListeners) if (reconnected) safely(reconnected);
        })
        .catch(logError);
    });
    redis.on('message', (_channel: string, raw: string) => {
      let message: { from: string; events?: MapEvent[]; signal?: BusSignal };
      try {
        message = JSON.parse(raw);
      } catch (error) {
        return logError(error);
      }
      if (message.from === instanceId) return;
      if (message.signal) dispatchSignal(message.signal);
      for (const event of message.events ?? []) dispatch(event);
    });
  }
  return {
    publish(events) {
      for (const event of events) dispatch(event);
      if (publisher && events.length) {
        // A lost message is recovered by the streams' gap filling from the event log; it is still reported.
        publisher.publish(channel, JSON.stringify({ from: instanceId, events })).catch(logError);
      }
    },
    listen(mapId, listener, onResync) {
      let set = listeners.get(mapId);
      if (!set) {
        set = new Set();
        listeners.set(mapId, set);
      }
      const entry: Entry = { listener, onResync };
      set.add(entry);
      count++;
      return () => {
        if (set.delete(entry)) count--;
        if (set.size === 0 && listeners.get(mapId) === set) {
          listeners.delete(mapId);
          received.delete(mapId);
        }
      };
    },
    listenAll(listener) {
      allListeners.add(listener);
      return () => void allListeners.delete(listener);
    },
    listenerCount: (mapId) => (mapId === undefined ? count : (listeners.get(mapId)?.size ?? 0)),
    listenedMaps: () => new Map([...listeners.keys()].map((mapId) => [mapId, received.get(mapId) ?? 0])),
    resync,
    signal(signal) {
      dispatchSignal(signal);
      publisher?.publish(channel, JSON.stringify({ from: instanceId, signal })).catch(logError);
    },
    onSignal(listener, reconnected) {
      const entry = { listener, reconnected };
      signalListeners.add(entry);
      return () => void signalListeners.delete(entry);
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
