import type { EventBus } from '../../src/events/event-bus.ts';

/**
 * Resolves when `bus` (an instance's) next delivers an event of `mapId`: called before a change is made elsewhere, it
 * tells when the change's event has reached that instance.
 */
export function nextEventOf(bus: Pick<EventBus, 'onDelivered'>, mapId: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = bus.onDelivered((events) => {
      if (events[0]?.mapId !== mapId) return;
      stop();
      resolve();
    });
  });
}
