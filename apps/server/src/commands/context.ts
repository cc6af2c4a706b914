import type { Database, User } from '@thinkingmap/db';
import type { EventBus } from '../events/event-bus.ts';
import type { MapEvent } from '../events/map-event.ts';

/** What every command needs: the database, the bus, and who acts. */
export interface CommandContext {
  db: Database;
  bus: EventBus;
  viewer: User;
  /**
   * When set, the command runs at most once for this key: a repeat returns the first result and writes
   * nothing (agents set it, because LangGraph re-runs an interrupted step from its start).
   */
  idempotencyKey?: string;
  /** Called after a command's events are committed and published (agents hook in here). */
  onCommitted?: (events: readonly MapEvent[]) => void;
}
