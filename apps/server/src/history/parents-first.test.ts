import { describe, expect, it } from 'vitest';
import { parentsFirst } from './parents-first.ts';

const item = (id: string, parentId: string | null = null) => ({ id, parentId });
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('parentsFirst', () => {
  it('should keep an order in which every parent already comes first', () => {
    expect(ids(parentsFirst([item('a'), item('b', 'a'), item('c', 'b'), item('d', 'a')]))).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });

  it('should move a parent before the first of its descendants, however deep', () => {
    expect(ids(parentsFirst([item('c', 'b'), item('d'), item('b', 'a'), item('a')]))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('should keep an item whose parent is not among them, and end on a cycle', () => {
    expect(ids(parentsFirst([item('x', 'gone'), item('p', 'q'), item('q', 'p')]))).toEqual(['x', 'q', 'p']);
  });
});
