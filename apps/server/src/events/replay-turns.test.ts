import { describe, expect, it } from 'vitest';
import { ReplayTurns } from './replay-turns.ts';

describe('replay turns', () => {
  it('should grant at most its concurrency at once', async () => {
    const turns = new ReplayTurns({ concurrency: 2, holdMs: 60_000 });
    const granted: (() => void)[] = [];
    for (let i = 0; i < 5; i++) void turns.take('one').then((release) => granted.push(release));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(granted).toHaveLength(2);
    expect(turns.load).toEqual({ running: 2, waitingOwners: 1 });
    granted[0]!();
    granted[0]!();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(granted).toHaveLength(3);
    for (const release of granted) release();
  });

  it("should serve owners round robin, so one owner's queue does not hold back another's single page", async () => {
    const turns = new ReplayTurns({ concurrency: 1, holdMs: 60_000 });
    const order: string[] = [];
    const take = (owner: string) =>
      turns.take(owner).then((release) => {
        order.push(owner);
        release();
      });
    const all = [take('hostile'), take('hostile'), take('hostile'), take('hostile'), take('other')];
    await Promise.all(all);
    expect(order).toEqual(['hostile', 'other', 'hostile', 'hostile', 'hostile']);
  });

  it('should take a turn back from a page whose client reads too slowly', async () => {
    const turns = new ReplayTurns({ concurrency: 1, holdMs: 5 });
    await turns.take('slow');
    const next = await turns.take('other');
    next();
    expect(turns.load).toEqual({ running: 0, waitingOwners: 0 });
  });
});
