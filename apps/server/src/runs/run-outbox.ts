import type { CarriedWork, CommandContext, WorkCarrier } from '../commands/context.ts';
import { NotFoundError } from '../commands/domain-errors.ts';
import type { PendingEvent } from '../commands/map-event.ts';
import { mutateMap } from '../commands/mutate-map.ts';

/**
 * How long a run's progress may wait for a command to ride along with before it is written on its own.
 * Long enough that a step with an instant model shares its write, and that runs starting together write
 * their progress while their models think rather than while the others start (8 siblings at once measured
 * ~1.4× one with 40 ms, ~1.2× with 100 ms); short enough that a person sees a step start at once.
 */
export const OUTBOX_DELAY_MS = 100;

/**
 * The ordered queue of one run's progress: its own events (steps, streamed text) and its state on nodes
 * (running, waiting, the intent chosen). It rides along with the run's next command on the map (the store
 * passes the outbox as `carry` to `mutateMap`), or, when no command comes within {@link OUTBOX_DELAY_MS}, is
 * written through `mutateMap` on its own. Its own writes run one at a time and a command takes the queue
 * only once they are committed, so the log keeps the order in which things happened. Failures of its own
 * writes are logged, never thrown into the run: lost progress must not fail an agent.
 */
export class RunOutbox implements WorkCarrier {
  #queued: CarriedWork[] = [];
  #timer: NodeJS.Timeout | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(
    /** Acts as the map's owner, like every write of the run. */
    private readonly ctx: Omit<CommandContext, 'carry' | 'idempotencyKey'>,
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

  /** Queues work to be done in the transaction of the run's next command (see {@link CarriedWork}). */
  defer(work: CarriedWork): void {
    this.#queued.push(work);
    this.#schedule();
  }

  async take(): Promise<CarriedWork[]> {
    await this.#idle();
    return this.#takeNow();
  }

  putBack(work: CarriedWork[]): void {
    if (work.length === 0) return;
    this.#queued.unshift(...work);
    this.#schedule();
  }

  /** Writes everything queued now and resolves once it is committed. */
  flush(): Promise<void> {
    return this.#write();
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
