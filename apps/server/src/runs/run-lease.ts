import type { Database } from '@thinkingmap/db';
import type { RunOwner } from './run-engine.ts';

/** How a lease is kept; see {@link RunLease}. */
export interface RunLeaseOptions {
  db: Database;
  runId: string;
  /** Stored on the run with every refresh: which instance and boot drive it. */
  owner: RunOwner;
  /** Time between refreshes. */
  heartbeatMs: number;
  /** Refreshes in a row that may fail before the lease counts as lost. */
  maxMissed: number;
  /** Where every failed refresh is reported. */
  logError: (error: unknown) => void;
  /** Called once when `maxMissed` refreshes in a row failed: the drive must stop. */
  onLost: (error: unknown) => void;
}

/**
 * A drive's lease on its run: the run row's `updatedAt`, refreshed every `heartbeatMs` while this process
 * drives it, so no other instance resumes it. A refresh that fails is logged; after `maxMissed` in a row the
 * lease is lost: another instance may take the run over once it looks abandoned, so this one must stop
 * first (`heartbeatMs × maxMissed` stays under the lease time). Refreshes never overlap.
 */
export class RunLease {
  #missed = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly options: RunLeaseOptions) {}

  /**
   * Keeps refreshing the lease every `heartbeatMs` until {@link stop}. The first refresh is due after one
   * heartbeat: every way a drive starts has just written the run row (created, answered, expired, claimed).
   */
  start(): void {
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #refresh(): Promise<void> {
    const { db, runId, owner, maxMissed, logError, onLost } = this.options;
    try {
      const data = { updatedAt: new Date(), ownerInstance: owner.instanceId, ownerBoot: owner.bootId };
      await db.write((tx) => tx.agentRun.updateMany({ where: { id: runId, status: 'RUNNING' }, data }));
      this.#missed = 0;
    } catch (error) {
      this.#missed += 1;
      logError(new Error(`run ${runId}: lease refresh ${this.#missed} of ${maxMissed} failed`, { cause: error }));
      if (this.#missed >= maxMissed) {
        this.stop();
        onLost(error);
      }
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#refresh(), this.options.heartbeatMs);
    this.#timer.unref();
  }
}
