import type { ReadDb } from '@thinkingmap/db';
import type { EventBus } from './event-bus.ts';

/** Options of {@link watchForGaps}. */
export interface GapWatchOptions {
  db: ReadDb;
  bus: EventBus;
  /** How often the listened maps' `lastSeq` is compared with what arrived (5 s). */
  intervalMs?: number;
  logError: (error: unknown) => void;
}

/**
 * Redis pub/sub may drop a message without telling anyone; a subscriber would then see nothing until the map's
 * next event, however long that takes. Every `intervalMs` this reads the `lastSeq` of the maps listened to on this
 * instance (one query) and asks the listeners of every map that moved past what arrived to re-read the log.
 * Reconnections are handled by the bus itself, at once. Returns the stop.
 */
export function watchForGaps(options: GapWatchOptions): () => void {
  const { db, bus, logError } = options;
  let running = false;
  // The lastSeq each map had when its listeners were last told to re-read: an idle map is not re-read again.
  const resynced = new Map<string, number>();
  const check = async () => {
    const listened = bus.listenedMaps();
    for (const mapId of resynced.keys()) if (!listened.has(mapId)) resynced.delete(mapId);
    if (running || listened.size === 0) return;
    running = true;
    try {
      const maps = await db.map.findMany({
        where: { id: { in: [...listened.keys()] } },
        select: { id: true, lastSeq: true },
      });
      const seen = (mapId: string) => Math.max(listened.get(mapId) ?? 0, resynced.get(mapId) ?? 0);
      const behind = maps.filter((map) => map.lastSeq > seen(map.id));
      for (const map of behind) resynced.set(map.id, map.lastSeq);
      if (behind.length) bus.resync(behind.map((map) => map.id));
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void check().catch(logError), options.intervalMs ?? 5_000);
  timer.unref();
  return () => clearInterval(timer);
}
