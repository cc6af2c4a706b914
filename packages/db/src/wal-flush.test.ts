import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupFlush, walFlush } from './wal-flush.ts';

/** A flush the test ends by hand, counting how many were started. */
function manualFlush() {
  const started: (() => void)[] = [];
  const flushOnce = () => new Promise<void>((done) => started.push(done));
  return { started, flush: groupFlush(flushOnce) };
}

describe('groupFlush', () => {
  it('should start a flush at once when none is running and resolve when it ends', async () => {
    const { started, flush } = manualFlush();
    let done = false;
    const flushed = flush().then(() => {
      done = true;
    });
    expect(started).toHaveLength(1);
    expect(done).toBe(false);
    started[0]!();
    await flushed;
    expect(done).toBe(true);
  });

  it('should make a caller arriving during a flush wait for the next one, shared by all who arrive meanwhile', async () => {
    const { started, flush } = manualFlush();
    let firstDone = false;
    let laterDone = false;
    const first = flush().then(() => {
      firstDone = true;
    });
    const later = Promise.all([flush(), flush()]).then(() => {
      laterDone = true;
    });
    started[0]!();
    await first;
    await expect.poll(() => started.length).toBe(2);
    expect(firstDone).toBe(true);
    expect(laterDone).toBe(false);
    started[1]!();
    await later;
    expect(started).toHaveLength(2);
  });

  it('should give a failed flush to its callers and start the next one afresh', async () => {
    let calls = 0;
    const flush = groupFlush(async () => {
      calls++;
      if (calls === 1) throw new Error('disk');
    });
    await expect(flush()).rejects.toThrow('disk');
    await expect(flush()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});

describe('walFlush', () => {
  it('should flush an existing log and find nothing to flush when there is none', async () => {
    const file = join(tmpdir(), `wal-flush-${process.pid}.db`);
    try {
      await expect(walFlush(file)()).resolves.toBeUndefined();
      writeFileSync(`${file}-wal`, 'frames');
      await expect(walFlush(file)()).resolves.toBeUndefined();
    } finally {
      rmSync(`${file}-wal`, { force: true });
    }
  });
});
