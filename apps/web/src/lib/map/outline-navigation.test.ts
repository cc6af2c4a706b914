import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { outlineMove } from './outline-navigation.ts';
import { visibleTree } from './visible-tree.ts';

const nodes = [
  aNode({ id: 'root' }),
  aNode({ id: 'a', parentId: 'root' }),
  aNode({ id: 'a1', parentId: 'a' }),
  aNode({ id: 'b', parentId: 'root', position: 1 }),
];

describe('outlineMove', () => {
  const open = visibleTree(nodes, new Set()).rows;

  it('should move up and down the shown rows and jump to the ends', () => {
    expect(outlineMove(open, new Set(), 'a', 'ArrowDown')).toEqual({ focus: 'a1' });
    expect(outlineMove(open, new Set(), 'a1', 'ArrowDown')).toEqual({ focus: 'b' });
    expect(outlineMove(open, new Set(), 'root', 'ArrowUp')).toBeNull();
    expect(outlineMove(open, new Set(), 'a1', 'Home')).toEqual({ focus: 'root' });
    expect(outlineMove(open, new Set(), 'root', 'End')).toEqual({ focus: 'b' });
    expect(outlineMove(open, new Set(), null, 'ArrowDown')).toEqual({ focus: 'root' });
  });

  it('should fold an open node with Left, then go to the parent', () => {
    expect(outlineMove(open, new Set(), 'a', 'ArrowLeft')).toEqual({ fold: 'a' });
    const folded = new Set(['a']);
    expect(outlineMove(visibleTree(nodes, folded).rows, folded, 'a', 'ArrowLeft')).toEqual({ focus: 'root' });
    expect(outlineMove(open, new Set(), 'a1', 'ArrowLeft')).toEqual({ focus: 'a' });
  });

  it('should unfold a folded node with Right, then go to its first child; a leaf goes nowhere', () => {
    const folded = new Set(['a']);
    expect(outlineMove(visibleTree(nodes, folded).rows, folded, 'a', 'ArrowRight')).toEqual({ unfold: 'a' });
    expect(outlineMove(open, new Set(), 'a', 'ArrowRight')).toEqual({ focus: 'a1' });
    expect(outlineMove(open, new Set(), 'b', 'ArrowRight')).toBeNull();
  });
});
