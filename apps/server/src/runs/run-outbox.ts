import type { CarriedWork, CommandContext, WorkCarrier } from '../commands/context.ts';
import { NotFoundError } from '../commands/domain-errors.ts';
import type { PendingEvent } from '../commands/map-event.ts';
import { mutateMap } from '../commands/mutate-map.ts';

/**
 * How long a run's progress may wait before the outbox writes it on its own. Long enough that a step with an
 * instant model shares its write with the steps around it, and that runs starting together write their progress
 * while their models think rather than while the others start; short enough that a person sees a step start at once.
 */
export const OUTBOX_DELAY_MS = 100;

/**
 * The ordered queue of one run's progress: its own events (steps, streamed text), its state on nodes (running,
 * waiting, the intent chosen) and its decisions. The outbox writes it itself, in one `mutateMap` command of its
 * own, before the run's next command (which flushes it first) or when nothing came within {@link OUTBOX_DELAY_MS};
 * the run's settle, the end of the same drive, takes what is left into its own transaction (as `ctx.carry`). Its
 * writes run one at a time, so the log keeps the order in which things happened. Failures of its own writes are
 * logged, never thrown into the run: lost progress must not fail an agent.
 */
export class RunOutbox implements WorkCarrier {
  #queued: CarriedWork[] = [];
  #timer: NodeJS.Timeout | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(
    /** Acts as the map's owner, like every write of the run. */
    private readonly ctx: Omit<CommandContext, 'idempotencyKey'>,
    readonly mapId: string,
    /** Where a failed write of the outbox's own is reported. */
    private readonly logError: (error: unknown) => void,
    private readonly delayMs = OUTBOX_DELAY_MS,
  ) {}

  /** Queues events to be appended and published in order. */
  push(events: PendingEvent[]): void {
    this.defer((_tx, emit) => {
      for (const event of events) emit(event);
    });
  }

  /** Queues work to be done in the outbox's next write, in order (see {@link CarriedWork}). */
  defer(work: CarriedWork): void {
    this.#queued.push(work);
    this.#schedule();
  }

  /** Writes everything queued now and resolves once it is committed (at once when nothing is queued or in flight). */
  flush(): Promise<void> {
    return this.#write();
  }

  /** Waits until the outbox's own write in flight (if any) is committed, then removes and returns what is queued. */
  async take(): Promise<CarriedWork[]> {
    await this.#idle();
    return this.#takeNow();
  }

  /** Returns work taken by a settle that failed, ahead of anything queued since. */
  putBack(work: CarriedWork[]): void {
    if (work.length === 0) return;
    this.#queued.unshift(...work);
    this.#schedule();
  }

  #schedule(): void {
    this.#timer ??= setTimeout(() => void this.#write(), this.delayMs);
  }

  #takeNow(): CarriedWork[] {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const taken = this.#queued;
    this.#queued = [];
    return taken;
  }

  /** Resolves when no write of the outbox's own is in flight. */
  async #idle(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.#tail;
      await tail;
    } while (tail !== this.#tail);
  }

  #write(): Promise<void> {
    this.#tail = this.#tail.then(async () => {
      const batch = this.#takeNow();
      if (batch.length === 0) return;
      await mutateMap(this.ctx, this.mapId, async (tx, emit, map) => {
        for (const work of batch) await work(tx, emit, map);
      }).catch((error) => {
        // A map deleted meanwhile takes its runs with it: nothing is left to record.
        if (!(error instanceof NotFoundError))
          this.logError(new Error(`run progress on map ${this.mapId} could not be recorded`, { cause: error }));
      });
    });
    return this.#tail;
  }
}
