import type { MapVersion } from '@thinkingmap/db';
import { describe, expect, it } from 'vitest';
import { MapVersionReads } from './map-version-reads.ts';

/** A map row read that answers only when told to, and records when each read started. */
function controlledRead() {
  const started: { mapId: string; answer: (lastSeq: number) => void }[] = [];
  const read = (mapId: string) =>
    new Promise<MapVersion | null>((resolve) =>
      started.push({
        mapId,
        answer: (lastSeq) => resolve({ ownerId: 'owner', autoRun: true, lastSeq, tokensUsed: 0, updatedAt: 'then' }),
      }),
    );
  return { read, started };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('map version reads', () => {
  it('should start the read at once when no other request is waiting for one', async () => {
    const { read, started } = controlledRead();
    const reads = new MapVersionReads(read);
    const version = reads.read('m');
    // Started in the same turn as the request, not a turn later.
    expect(started.map((s) => s.mapId)).toEqual(['m']);
    started[0]!.answer(3);
    expect((await version)?.lastSeq).toBe(3);
    // Once answered, the next lone request of a later turn reads at once again.
    await nextTurn();
    reads.read('m');
    expect(started).toHaveLength(2);
  });

  it('should let a request of the same turn share a later read, though the first one was answered at once', async () => {
    const { read, started } = controlledRead();
    const reads = new MapVersionReads(read);
    const first = reads.read('m');
    started[0]!.answer(1);
    await first;
    // Still the turn in which the first request arrived: this one coincides with it, and waits for the turn's end.
    const second = reads.read('m');
    const third = reads.read('m');
    expect(started).toHaveLength(1);
    await nextTurn();
    expect(started).toHaveLength(2);
    started[1]!.answer(2);
    expect([(await second)?.lastSeq, (await third)?.lastSeq]).toEqual([2, 2]);
  });

  it('should share one read, started after they all arrived, among requests that arrive while others wait', async () => {
    const { read, started } = controlledRead();
    const reads = new MapVersionReads(read);
    const first = reads.read('m');
    const second = reads.read('m');
    const third = reads.read('m');
    const otherMap = reads.read('n');
    expect(started).toHaveLength(1);
    // The shared reads start once this turn's requests have been handled: one per map.
    await nextTurn();
    expect(started.map((s) => s.mapId)).toEqual(['m', 'm', 'n']);
    // A request arriving after the shared read started does not join it: it has a read of its own.
    const late = reads.read('m');
    await nextTurn();
    expect(started.map((s) => s.mapId)).toEqual(['m', 'm', 'n', 'm']);
    for (const [i, s] of started.entries()) s.answer(10 + i);
    expect((await Promise.all([first, second, third, otherMap, late])).map((v) => v?.lastSeq)).toEqual([
      10, 11, 11, 12, 13,
    ]);
  });

  it('should pass a failed read on to the requests that share it, and read at once again afterwards', async () => {
    let calls = 0;
    const reads = new MapVersionReads(async () => {
      calls++;
      throw new Error('database away');
    });
    const failed = [reads.read('m'), reads.read('m'), reads.read('m')];
    for (const read of failed) await expect(read).rejects.toThrow('database away');
    expect(calls).toBe(2);
    void Promise.resolve(reads.read('m')).catch(() => {});
    expect(calls).toBe(3);
  });
});
