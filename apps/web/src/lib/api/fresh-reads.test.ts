import { describe, expect, it, vi } from 'vitest';
import { FreshReads } from './fresh-reads.ts';

/** A read whose answers the test gives, one pending read at a time. */
function controlledRead() {
  const pending: ((value: number) => void)[] = [];
  let version = 0;
  return {
    read: () => new Promise<number>((resolve) => pending.push(() => resolve(version))),
    change: () => (version += 1),
    /** Answers the oldest read in flight with the version as it is now. */
    answer: async () => {
      pending.shift()?.(0);
      await Promise.resolve();
      await Promise.resolve();
    },
    inFlight: () => pending.length,
  };
}

describe('FreshReads', () => {
  it('should never run two reads at once, and read once more after a change made during a read', async () => {
    const source = controlledRead();
    const applied: number[] = [];
    const reads = new FreshReads(source.read, (v) => applied.push(v));
    reads.changed();
    source.change();
    reads.changed();
    reads.changed();
    expect(source.inFlight()).toBe(1);
    await source.answer();
    // The first answer is shown, and one more read (not two) follows for the changes made meanwhile.
    expect(applied).toEqual([1]);
    expect(source.inFlight()).toBe(1);
    source.change();
    await source.answer();
    expect(applied).toEqual([1, 2]);
    expect(source.inFlight()).toBe(0);
  });

  it('should read again at the next change once idle, and drop what arrives after it stopped', async () => {
    const source = controlledRead();
    const applied: number[] = [];
    const reads = new FreshReads(source.read, (v) => applied.push(v));
    reads.changed();
    await source.answer();
    source.change();
    reads.changed();
    reads.stop();
    await source.answer();
    reads.changed();
    expect(applied).toEqual([0]);
    expect(source.inFlight()).toBe(0);
  });

  it('should read for the key of the moment, and drop an answer read for a key that is no longer current', async () => {
    const pending: (() => void)[] = [];
    const asked: string[] = [];
    let current = 'a';
    const applied: [string, string][] = [];
    const reads = FreshReads.keyed(
      () => current,
      (key) => {
        asked.push(key);
        return new Promise<string>((resolve) => pending.push(() => resolve(`answer for ${key}`)));
      },
      (value, key) => applied.push([key, value]),
    );
    reads.changed();
    current = 'b';
    reads.changed();
    pending.shift()?.();
    await vi.waitFor(() => expect(asked).toEqual(['a', 'b']));
    // The answer for "a" came after the key moved to "b": dropped; the read for "b" followed it.
    expect(applied).toEqual([]);
    pending.shift()?.();
    await vi.waitFor(() => expect(applied).toEqual([['b', 'answer for b']]));
  });
});
