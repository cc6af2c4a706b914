import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import type { Db, Tx } from './database.ts';
import type { Provider } from './url.ts';
import type { Flush } from './wal-flush.ts';

/**
 * How a write's commit reaches the disk. `full` (the default) flushes it before the write resolves. `relaxed`
 * is for progress that can be redone: an agent run's steps, state and settles, which a run recovers from its
 * last stored pause. It commits without waiting for the disk (SQLite `synchronous = NORMAL` in WAL mode,
 * PostgreSQL `synchronous_commit = off`): a process crash loses nothing, a power loss may take the last
 * moments of relaxed writes — never a `full` write, nor any write committed before one (the log is flushed
 * in order), and the database stays consistent either way.
 */
export type WriteDurability = 'full' | 'relaxed';

/** Options of one write. */
export interface WriteOptions {
  durability?: WriteDurability;
}

/** The one path for writes. */
export interface WriteQueue {
  write<T>(work: (tx: Tx) => Promise<T>, options?: WriteOptions): Promise<T>;
  /** Resolves when every queued write has finished. */
  drain(): Promise<void>;
}

const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;
const RETRYABLE_CODES = new Set(['P2034', '40001', '40P01']);

function isRetryable(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}

/**
 * PostgreSQL aborts one of two transactions that deadlock or conflict (READ COMMITTED still deadlocks on row
 * locks taken in opposite orders); the aborted one ran nothing, so it runs again: up to 4 retries, about 5 ms
 * apart at first and doubling up to 40 ms, with jitter so the two do not meet again.
 */
const retryAborted = retry(handleWhen(isRetryable), {
  maxAttempts: 4,
  backoff: new ExponentialBackoff({ initialDelay: 5, maxDelay: 40 }),
});

/** How the SQLite write path reaches the disk. */
export interface SqliteWriteOptions {
  /**
   * Flushes what was committed to disk off the main thread, shared between writes (`walFlush`); none (an
   * in-memory database): nothing to flush.
   */
  flush?: Flush;
}

/**
 * Creates the write path. SQLite allows one writer at a time; queueing writes in-process means a
 * transaction never meets another at COMMIT (the SQLITE_BUSY path that has lost acknowledged writes).
 *
 * On SQLite every transaction commits at `synchronous = NORMAL` (no flush inside COMMIT, which would block the
 * process for the disk's time), and a `full` write resolves only after a flush of the log that started after
 * its commit (`flush`): as durable as `synchronous = FULL`, but the next queued transaction runs meanwhile and
 * writes that commit together share one flush (group commit). A write's events are published once it resolves,
 * so nothing a person was told of can be lost; what the next transactions read of it before its flush ends can
 * only be lost with it (the log reaches the disk in order).
 */
export function createWriteQueue(prisma: Db, provider: Provider, sqlite: SqliteWriteOptions = {}): WriteQueue {
  let tail: Promise<unknown> = Promise.resolve();
  if (provider === 'sqlite') {
    const { flush } = sqlite;
    // Set once on the adapter's one connection, before the first transaction (no transaction is open then); tried
    // again by the next write if it failed.
    let normal: Promise<unknown> | undefined;
    const setNormal = () =>
      (normal ??= prisma.$executeRawUnsafe('PRAGMA synchronous = NORMAL').catch((error) => {
        normal = undefined;
        throw error;
      }));
    return {
      write<T>(work: (tx: Tx) => Promise<T>, options?: WriteOptions): Promise<T> {
        const run = tail.then(setNormal).then(() => prisma.$transaction(work, TRANSACTION_OPTIONS));
        // The next write waits for this one's commit, not for its flush nor its success: the caller gets the
        // failure through `run`.
        tail = run.catch(() => undefined);
        if ((options?.durability ?? 'full') === 'relaxed' || !flush) return run;
        return run.then(async (result) => {
          await flush();
          return result;
        });
      },
      drain: () => tail.then(() => undefined),
    };
  }
  const pending = new Set<Promise<unknown>>();
  return {
    async write<T>(work: (tx: Tx) => Promise<T>, options?: WriteOptions): Promise<T> {
      const relaxed = options?.durability === 'relaxed';
      const run = retryAborted.execute(() =>
        prisma.$transaction(async (tx) => {
          if (relaxed) await tx.$executeRawUnsafe('SET LOCAL synchronous_commit = off');
          return work(tx);
        }, TRANSACTION_OPTIONS),
      );
      pending.add(run);
      try {
        return await run;
      } finally {
        pending.delete(run);
      }
    },
    drain: async () => {
      await Promise.allSettled([...pending]);
    },
  };
}
