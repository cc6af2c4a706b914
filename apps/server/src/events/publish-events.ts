import type { Database } from '@thinkingmap/db';
import type { EventBus } from './event-bus.ts';
import { appendEvents } from './event-log.ts';
import type { MapEvent, PendingEvent } from './map-event.ts';

/**
 * Appends events that change no other data (an agent entered a step, streamed text) and publishes them after
 * commit — the same log and sequence as every command's events.
 */
export async function publishEvents(
  db: Database,
  bus: EventBus,
  mapId: string,
  events: readonly PendingEvent[],
): Promise<MapEvent[]> {
  if (events.length === 0) return [];
  const stored = await db.write((tx) => appendEvents(tx, mapId, events));
  bus.publish(stored);
  return stored;
}
