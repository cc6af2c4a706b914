import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import type { Db, Tx } from './database.ts';
import type { Provider } from './url.ts';

/** The one path for writes. */
export interface WriteQueue {
  write<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Resolves when every queued write has finished. */
  drain(): Promise<void>;
}

const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;
const RETRYABLE_CODES = new Set(['P2034', '40001', '40P01']);

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
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

/**
 * Creates the write path. SQLite allows one writer at a time; queueing writes in-process means a
 * transaction never meets another at COMMIT (the SQLITE_BUSY path that has lost acknowledged writes).
 */
export function createWriteQueue(prisma: Db, provider: Provider): WriteQueue {
  let tail: Promise<unknown> = Promise.resolve();
  if (provider === 'sqlite') {
    return {
      write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
        const run = tail.then(() => prisma.$transaction(work, TRANSACTION_OPTIONS));
        // The next write waits for this one, not for its success: the caller gets the failure through `run`.
        tail = run.catch(() => undefined);
        return run;
      },
      drain: () => tail.then(() => undefined),
    };
  }
  const pending = new Set<Promise<unknown>>();
  return {
    async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      const run = retryAborted.execute(() => prisma.$transaction(work, TRANSACTION_OPTIONS));
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
