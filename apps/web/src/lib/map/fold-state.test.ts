import { describe, expect, it } from 'vitest';
import { FoldState } from './fold-state.svelte.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('FoldState', () => {
  it('should remember folded branches per map across page loads', () => {
    const storage = memoryStorage();
    const first = new FoldState('m1', storage);
    first.fold('a');
    first.toggle('b');
    expect(new FoldState('m1', storage).folded).toEqual(new Set(['a', 'b']));
    expect(new FoldState('m2', storage).folded).toEqual(new Set());
  });

  it('should unfold the ancestors of a node it must show, and forget a map with nothing folded', () => {
    const storage = memoryStorage();
    const state = new FoldState('m1', storage);
    state.fold('a');
    state.fold('x');
    state.reveal(['a', 'root']);
    expect(state.isFolded('a')).toBe(false);
    expect(state.isFolded('x')).toBe(true);
    state.toggle('x');
    expect(storage.data.size).toBe(0);
  });

  it('should start unfolded when what was stored is not a list', () => {
    const storage = memoryStorage();
    storage.setItem('thinkingmap.folded.m1', '{"not":"a list"');
    expect(new FoldState('m1', storage).folded.size).toBe(0);
  });
});
