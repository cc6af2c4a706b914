import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { visibleTree } from './visible-tree.ts';

const tree = [
  aNode({ id: 'root' }),
  aNode({ id: 'b', parentId: 'root', position: 1 }),
  aNode({ id: 'a', parentId: 'root', position: 0 }),
  aNode({ id: 'a1', parentId: 'a' }),
  aNode({ id: 'a1x', parentId: 'a1' }),
  aNode({ id: 'a2', parentId: 'a', position: 1 }),
];

describe('visibleTree', () => {
  it('should list every node in reading order with depth, children and place among siblings', () => {
    const { rows, hiddenBelow } = visibleTree(tree, new Set());
    expect(rows.map((r) => [r.node.id, r.depth, r.childCount, `${r.posinset}/${r.setsize}`])).toEqual([
      ['root', 0, 2, '1/1'],
      ['a', 1, 2, '1/2'],
      ['a1', 2, 1, '1/2'],
      ['a1x', 3, 0, '1/1'],
      ['a2', 2, 0, '2/2'],
      ['b', 1, 0, '2/2'],
    ]);
    expect(hiddenBelow.size).toBe(0);
  });

  it('should hide what lies below a folded node and say how much it hides', () => {
    const { rows, hiddenBelow } = visibleTree(tree, new Set(['a']));
    expect(rows.map((r) => r.node.id)).toEqual(['root', 'a', 'b']);
    expect(hiddenBelow.get('a')).toBe(3);
  });

  it('should ignore a fold on a leaf and on a node that is already hidden', () => {
    const { rows, hiddenBelow } = visibleTree(tree, new Set(['b', 'a1', 'a']));
    expect(rows.map((r) => r.node.id)).toEqual(['root', 'a', 'b']);
    expect([...hiddenBelow.keys()]).toEqual(['a']);
  });
});
