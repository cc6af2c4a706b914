import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { MapEvent } from './map-event.ts';

/** Receives the committed events of one map, in sequence order as published. */
export type EventListener = (event: MapEvent) => void;

/** Delivers committed events to the listeners of a map, in this process or (with Redis) in all of them. */
export interface EventBus {
  /** Publishes events that are already committed to the event log. */
  publish(events: readonly MapEvent[]): void;
  /** Starts listening at once (no event published after this call is missed locally); returns the stop. */
  listen(mapId: string, listener: EventListener): () => void;
  /** Listens to the events of every map (caches invalidate through this); returns the stop. */
  listenAll(listener: EventListener): () => void;
  /** Number of listeners, for health and benchmarks. */
  listenerCount(): number;
  close(): Promise<void>;
}

const CHANNEL = 'thinkingmap:map-events';

/**
 * Creates the bus. In-process by default. With `redisUrl`, events are also sent over Redis pub/sub so
 * several server instances share them; local listeners get local events at once and Redis copies of
 * them are ignored. Redis gives no delivery guarantee: subscription streams fill gaps from the log.
 */
export function createEventBus(options: { redisUrl?: string } = {}): EventBus {
  const listeners = new Map<string, Set<EventListener>>();
  const everyMap = new Set<EventListener>();
  let count = 0;
  const dispatch = (event: MapEvent) => {
    for (const listener of everyMap) listener(event);
    const set = listeners.get(event.mapId);
    if (!set) return;
    for (const listener of set) listener(event);
  };
  const instanceId = randomUUID();
  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  if (options.redisUrl) {
    publisher = new Redis(options.redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
    subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
    void subscriber.subscribe(CHANNEL);
    subscriber.on('message', (_channel: string, raw: string) => {
      const message = JSON.parse(raw) as { from: string; events: MapEvent[] };
      if (message.from === instanceId) return;
      for (const event of message.events) dispatch(event);
    });
  }
  return {
    publish(events) {
      for (const event of events) dispatch(event);
      if (publisher && events.length) {
        publisher.publish(CHANNEL, JSON.stringify({ from: instanceId, events })).catch(() => {
          // Lost Redis messages are recovered by the streams' gap filling from the event log.
        });
      }
    },
    listen(mapId, listener) {
      let set = listeners.get(mapId);
      if (!set) {
        set = new Set();
        listeners.set(mapId, set);
      }
      set.add(listener);
      count++;
      return () => {
        if (set.delete(listener)) count--;
        if (set.size === 0) listeners.delete(mapId);
      };
    },
    listenAll(listener) {
      everyMap.add(listener);
      return () => everyMap.delete(listener);
    },
    listenerCount: () => count,
    async close() {
      await Promise.all(
        [publisher, subscriber].filter((c): c is Redis => !!c).map((c) => c.quit().catch(() => c.disconnect())),
      );
    },
  };
}
