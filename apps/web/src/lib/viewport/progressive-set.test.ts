import { describe, expect, it } from 'vitest';
import { ProgressiveSet } from './progressive-set.svelte.ts';

function frames() {
  const queue: (() => void)[] = [];
  return { schedule: (callback: () => void) => void queue.push(callback), next: () => queue.shift()?.() };
}

describe('ProgressiveSet', () => {
  it('should draw the first set at once, then add new ids a batch per frame and drop old ones at once', () => {
    const { schedule, next } = frames();
    const set = new ProgressiveSet(2, schedule);
    set.follow(['a', 'b', 'c']);
    expect([...set.ids]).toEqual(['a', 'b', 'c']);
    set.follow(['c', 'd', 'e', 'f', 'g'], new Set(['g']));
    expect([...set.ids]).toEqual(['c', 'g']);
    next();
    expect([...set.ids]).toEqual(['c', 'g', 'd', 'e']);
    next();
    expect([...set.ids]).toEqual(['c', 'g', 'd', 'e', 'f']);
  });

  it('should stop adding what an older wish wanted once a newer one comes', () => {
    const { schedule, next } = frames();
    const set = new ProgressiveSet(1, schedule);
    set.follow(['a']);
    set.follow(['a', 'b', 'c']);
    set.follow(['a']);
    next();
    next();
    expect([...set.ids]).toEqual(['a']);
  });
});
