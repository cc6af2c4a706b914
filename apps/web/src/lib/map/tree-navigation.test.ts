import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { layoutTree } from './tree-layout.ts';
import { navigateTree } from './tree-navigation.ts';

const { placed } = layoutTree(
  [
    aNode({ id: 'root' }),
    aNode({ id: 'a', parentId: 'root', position: 0 }),
    aNode({ id: 'b', parentId: 'root', position: 1 }),
    aNode({ id: 'a1', parentId: 'a' }),
    aNode({ id: 'b1', parentId: 'b' }),
  ],
  [],
);

describe('navigateTree', () => {
  it('should go to the first child with Right and back to the parent with Left', () => {
    expect(navigateTree(placed, 'root', 'ArrowRight')).toBe('a');
    expect(navigateTree(placed, 'a1', 'ArrowLeft')).toBe('a');
    expect(navigateTree(placed, 'root', 'ArrowLeft')).toBeNull();
    expect(navigateTree(placed, 'a1', 'ArrowRight')).toBeNull();
  });

  it('should move up and down within a column, across parents', () => {
    expect(navigateTree(placed, 'a', 'ArrowDown')).toBe('b');
    expect(navigateTree(placed, 'a1', 'ArrowDown')).toBe('b1');
    expect(navigateTree(placed, 'b1', 'ArrowUp')).toBe('a1');
    expect(navigateTree(placed, 'b', 'ArrowDown')).toBeNull();
  });

  it('should jump to the root with Home, and start there when nothing is focused', () => {
    expect(navigateTree(placed, 'b1', 'Home')).toBe('root');
    expect(navigateTree(placed, null, 'ArrowDown')).toBe('root');
    expect(navigateTree([], null, 'Home')).toBeNull();
  });

  it('should skip ghost cards', () => {
    const withGhost = layoutTree([aNode({ id: 'root' })], [], [{ id: 'g', parentId: 'root' }]).placed;
    expect(navigateTree(withGhost, 'root', 'ArrowRight')).toBeNull();
  });

  it('should jump to the last node of the deepest column with End', () => {
    expect(navigateTree(placed, 'root', 'End')).toBe('b1');
  });
});
