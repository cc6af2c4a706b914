import type { Database } from '@thinkingmap/db';
import type { EventBus } from '../events/event-bus.ts';
import type { MapEvent, PendingEvent } from '../events/map-event.ts';
import { publishEvents } from '../events/publish-events.ts';

/**
 * The ordered queue of one run's own events (steps, streamed text). Events queued while a write is in
 * flight go together in the next transaction, so a step's ENTERED/LEFT pair costs one write, not two.
 * Writes through the store wait for it to drain first, so a step's AgentStep event is always sequenced
 * before the nodes the step creates. Failures are logged, never thrown into the run: a lost progress
 * event must not fail an agent.
 */
export class RunOutbox {
  #queued: PendingEvent[] = [];
  #draining: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly mapId: string,
    private readonly onCommitted?: (events: readonly MapEvent[]) => void,
  ) {}

  /** Queues events to be appended and published in order. */
  push(events: PendingEvent[]): void {
    this.#queued.push(...events);
    this.#draining ??= this.#drain();
  }

  async #drain(): Promise<void> {
    // Let the step that queued this event queue its next ones too, then write them all at once.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queued.length) {
      const batch = this.#queued;
      this.#queued = [];
      try {
        const stored = await publishEvents(this.db, this.bus, this.mapId, batch);
        if (stored.length) this.onCommitted?.(stored);
      } catch (error) {
        console.error('[thinkingmap] could not record run events:', error);
      }
    }
    this.#draining = null;
  }

  /** Resolves once everything queued so far is committed. */
  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
  }
}
