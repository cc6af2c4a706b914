import type { ReadDb } from '@thinkingmap/db';
import { type EventBus, feedTopic, mapTopic, type Topic } from './event-bus.ts';

/** Options of {@link watchForGaps}. */
export interface GapWatchOptions {
  db: ReadDb;
  bus: EventBus;
  /** How often the followed topics' logs are compared with what arrived (5 s). */
  intervalMs?: number;
  logError: (error: unknown) => void;
}

/**
 * Redis pub/sub may drop a message without telling anyone; a subscriber would then see nothing until its log's next
 * event, however long that takes. Every `intervalMs` this reads the `lastSeq` of the maps and the `lastFeedSeq` of the
 * owners followed on this instance (two queries) and asks the subscribers of every topic whose log moved past what
 * arrived to read it again. Reconnections are handled by the bus itself, at once. Returns the stop.
 */
export function watchForGaps(options: GapWatchOptions): () => void {
  const { db, bus, logError } = options;
  let running = false;
  // The horizon each topic had when its subscribers were last told to read again: an idle log is not read again.
  const resynced = new Map<Topic, number>();
  const check = async () => {
    const followed = bus.followed();
    for (const topic of resynced.keys()) if (!followed.has(topic)) resynced.delete(topic);
    if (running || followed.size === 0) return;
    running = true;
    try {
      const ids = (prefix: string) =>
        [...followed.keys()].filter((topic) => topic.startsWith(prefix)).map((topic) => topic.slice(prefix.length));
      const [maps, owners] = await Promise.all([
        db.map.findMany({ where: { id: { in: ids('map:') } }, select: { id: true, lastSeq: true } }),
        db.user.findMany({ where: { id: { in: ids('feed:') } }, select: { id: true, lastFeedSeq: true } }),
      ]);
      const horizons: [Topic, number][] = [
        ...maps.map((map): [Topic, number] => [mapTopic(map.id), map.lastSeq]),
        ...owners.map((owner): [Topic, number] => [feedTopic(owner.id), owner.lastFeedSeq]),
      ];
      const seen = (topic: Topic) => Math.max(followed.get(topic) ?? 0, resynced.get(topic) ?? 0);
      const behind = horizons.filter(([topic, horizon]) => horizon > seen(topic));
      for (const [topic, horizon] of behind) resynced.set(topic, horizon);
      if (behind.length) bus.resync(behind.map(([topic]) => topic));
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void check().catch(logError), options.intervalMs ?? 5_000);
  timer.unref();
  return () => clearInterval(timer);
}
