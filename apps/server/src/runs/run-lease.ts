import { type Database, type RunOwnerColumns, RunStatus } from '@thinkingmap/db';

/** How a lease is kept; see {@link RunLease}. */
export interface RunLeaseOptions {
  db: Database;
  runId: string;
  /** The instance and boot that drive the run: a refresh only succeeds while the run row still names them. */
  owner: RunOwnerColumns;
  /** Time between refreshes; a refresh still pending when the next one is due counts as missed. */
  heartbeatMs: number;
  /** How old a lease may grow before another instance may take the run over (see `recoverRuns`). */
  leaseMs: number;
  /** Refreshes in a row that may be missed (failed, or still pending) before the lease counts as lost. */
  maxMissed: number;
  /** Where every missed refresh and the loss of the lease are reported. */
  logError: (error: unknown) => void;
  /** Called once when the lease is lost: the drive must stop. */
  onLost: (error: unknown) => void;
}

/**
 * A drive's lease on its run: the run row's `updatedAt`, refreshed every `heartbeatMs` while this process drives it
 * and the row still names this process as its owner, so no other instance resumes it. The lease is lost, and the
 * drive must stop, when
 * - a refresh finds the run no longer this process's to drive (another instance took it over, or it ended);
 * - `maxMissed` refreshes in a row were missed: they failed, or were still pending when the next one was due (a
 *   write queued behind others or waiting for a lock); no second refresh is queued behind a pending one;
 * - the lease has not been confirmed for `leaseMs - heartbeatMs`, whatever its refreshes are doing: one heartbeat
 *   before another instance may take the run over.
 */
export class RunLease {
  #missed = 0;
  #timer: NodeJS.Timeout | undefined;
  #deadline: NodeJS.Timeout | undefined;
  #pending = false;
  #stopped = false;

  constructor(private readonly options: RunLeaseOptions) {
    const { heartbeatMs, leaseMs, maxMissed } = options;
    if (heartbeatMs * (maxMissed + 1) > leaseMs) {
      throw new Error(
        `a lease of ${leaseMs} ms cannot miss ${maxMissed} refreshes of ${heartbeatMs} ms and stop in time`,
      );
    }
  }

  /**
   * Keeps refreshing the lease every `heartbeatMs` until {@link stop}. The first refresh is due after one
   * heartbeat: every way a drive starts has just written the run row (created, answered, expired, claimed).
   */
  start(): void {
    this.#confirm(Date.now());
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#deadline);
  }

  #beat(): void {
    if (this.#stopped) return;
    if (this.#pending) {
      const { heartbeatMs } = this.options;
      this.#miss('is still pending', new Error(`the refresh did not complete within ${heartbeatMs} ms`));
    } else {
      void this.#refresh();
    }
    this.#schedule();
  }

  async #refresh(): Promise<void> {
    const { db, runId, owner } = this.options;
    const at = new Date();
    this.#pending = true;
    try {
      const { count } = await db.write((tx) =>
        tx.agentRun.updateMany({
          where: { id: runId, status: 'RUNNING', ...owner },
          data: { updatedAt: at },
        }),
      );
      if (this.#stopped) return;
      if (count === 0 && !(await this.#waits())) {
        const error = new Error(`run ${runId}: no longer this instance's to drive (taken over, or ended)`);
        this.options.logError(error);
        this.#lose(error);
        return;
      }
      this.#missed = 0;
      this.#confirm(at.getTime());
    } catch (error) {
      if (!this.#stopped) this.#miss('failed', error);
    } finally {
      this.#pending = false;
    }
  }

  #miss(how: string, cause: unknown): void {
    const { runId, maxMissed, logError } = this.options;
    this.#missed += 1;
    logError(new Error(`run ${runId}: lease refresh ${this.#missed} of ${maxMissed} ${how}`, { cause }));
    if (this.#missed >= maxMissed) this.#lose(cause);
  }

  /**
   * Whether the run waits for its person (a reply resumed its drive while other questions of it still wait): no
   * instance takes a waiting run over, so there is no lease to keep and the drive goes on.
   */
  async #waits(): Promise<boolean> {
    const { db, runId } = this.options;
    const run = await db.read.agentRun.findUnique({ where: { id: runId }, select: { status: true } });
    return run?.status === RunStatus.WAITING;
  }

  /** The lease holds until `leaseMs - heartbeatMs` after `at`, when the row's `updatedAt` was last written. */
  #confirm(at: number): void {
    const { runId, leaseMs, heartbeatMs } = this.options;
    clearTimeout(this.#deadline);
    const left = at + leaseMs - heartbeatMs - Date.now();
    this.#deadline = setTimeout(() => {
      const error = new Error(`run ${runId}: lease not confirmed for ${leaseMs - heartbeatMs} ms`);
      this.options.logError(error);
      this.#lose(error);
    }, left);
    this.#deadline.unref();
  }

  #lose(error: unknown): void {
    if (this.#stopped) return;
    this.stop();
    this.options.onLost(error);
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#beat(), this.options.heartbeatMs);
    this.#timer.unref();
  }
}
