import type { ChangeKind, Database, Map as MapRow, TokenScope, Tx, User } from '@thinkingmap/db';
import type { EventBus } from '../events/event-bus.ts';
import type { MapEvent, PendingEvent } from './map-event.ts';

/**
 * Work done inside a command's transaction on a map: a run's progress (a step entered, streamed text, its state
 * on a node, written by its outbox), or what a command hands over to run before its own work (`carry`).
 */
export type CarriedWork = (tx: Tx, emit: (event: PendingEvent) => void, map: MapRow) => Promise<void> | void;

/**
 * A run's queue of {@link CarriedWork}: `mutateMap` takes it, does it first in the same transaction, and puts
 * it back if the command fails.
 */
export interface WorkCarrier {
  readonly mapId: string;
  /** Waits until the carrier's own write in flight (if any) is committed, then removes and returns what is queued. */
  take(): Promise<CarriedWork[]>;
  /** Returns work taken by a command that failed, ahead of anything queued since. */
  putBack(work: CarriedWork[]): void;
}

/** What every command needs: the database, the bus, and who acts. */
export interface CommandContext {
  db: Database;
  bus: EventBus;
  /** Who acts (only their id matters to a command). Agents act as the map's owner. */
  viewer: Pick<User, 'id'>;
  /** What the caller's token may do; a READ_ONLY caller is refused every change. Absent = full (agents, the server). */
  scope?: TokenScope;
  /**
   * When set, the command runs at most once for this key: a repeat returns the first result and writes
   * nothing (agents set it, because LangGraph re-runs an interrupted step from its start).
   */
  idempotencyKey?: string;
  /** Called after a command's events are committed and published (agents hook in here). */
  onCommitted?: (events: readonly MapEvent[]) => void;
  /** Work to do first in the command's transaction (a critic's suggestion's claim, a drive's progress at its settle). */
  carry?: WorkCarrier;
  /** Set when a run acts: its id and the step it is in, recorded on the events (the map's history). */
  actor?: RunActor;
  /** Set by a compensating command (undo, redo, restore): what kind of change it is and which change it reverts. */
  change?: { kind: ChangeKind; reverts: number | null };
}

/** The run (and its current step) behind a command. */
export interface RunActor {
  runId: string;
  step: () => string | null;
}
