import { open } from 'node:fs/promises';

/** Flushes what was committed so far to disk; see {@link groupFlush}. */
export type Flush = () => Promise<void>;

/**
 * Shares flushes between callers (group commit): a caller waits for a flush that starts after it called, so
 * everything it committed before calling is on disk when it resumes. While one flush runs, every caller that
 * arrives shares the next one, which starts when it ends: eight commits in a row cost two flushes, not eight.
 */
export function groupFlush(flushOnce: Flush): Flush {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const flushing = flushOnce().finally(() => {
      if (running === flushing) running = undefined;
    });
    running = flushing;
    return flushing;
  };
  return () => {
    if (!running) return start();
    // The flush in progress may have started before the caller's commit: it waits for the one after.
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}

/**
 * Flushes a SQLite database's write-ahead log (`<file>-wal`) to disk off the main thread (`fdatasync` on libuv's
 * pool), which is what `synchronous = FULL` does inside every COMMIT, blocking the process meanwhile. With the
 * connection at `synchronous = NORMAL` and this after a commit, the commit is as durable as under FULL, and the
 * process goes on with other work while the disk syncs. A log that is gone (checkpointed and removed) has
 * nothing left to flush: its frames are in the database file, which the checkpoint synced.
 */
export function walFlush(file: string): Flush {
  return groupFlush(async () => {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      // Opened anew each time: the log may have been removed and created again since the last flush.
      handle = await open(`${file}-wal`, 'r');
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return;
      throw error;
    }
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  });
}
