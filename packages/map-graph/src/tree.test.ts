import { describe, expect, it } from 'vitest';
import { ancestorIds, childrenByParent, depthOf, isInSubtree, subtreeIds, treeOrder } from './tree.ts';

const node = (id: string, parentId: string | null, position = 0) => ({ id, parentId, position });

//   r
//   ├─ a (position 0)
//   │  └─ a1
//   └─ b (position 1)
const nodes = [node('b', 'r', 1), node('a1', 'a'), node('r', null), node('a', 'r', 0)];

describe('tree walks', () => {
  it('should list a subtree root first', () => {
    expect(subtreeIds(nodes, 'a')).toEqual(['a', 'a1']);
    expect(subtreeIds(nodes, 'r')).toEqual(['r', 'b', 'a', 'a1']);
  });

  it('should tell whether a node lies under another', () => {
    expect(isInSubtree(nodes, 'a', 'a1')).toBe(true);
    expect(isInSubtree(nodes, 'a', 'a')).toBe(true);
    expect(isInSubtree(nodes, 'a', 'b')).toBe(false);
  });

  it('should name the ancestors nearest first and count them as the depth', () => {
    expect(ancestorIds(nodes, 'a1')).toEqual(['a', 'r']);
    expect(ancestorIds(nodes, 'r')).toEqual([]);
    expect(depthOf(nodes, 'a1')).toBe(2);
    expect(depthOf(nodes, 'b')).toBe(1);
    expect(depthOf(nodes, 'unknown')).toBe(0);
  });

  it('should order a tree depth-first, siblings by position, with each node’s depth', () => {
    expect(treeOrder(nodes).map(({ node, depth }) => `${node.id}@${depth}`)).toEqual(['r@0', 'a@1', 'a1@2', 'b@1']);
  });

  it('should order siblings as told, and break position ties by id by default', () => {
    const siblings = [node('r', null), node('y', 'r'), node('x', 'r'), node('z', 'r', -1)];
    expect(treeOrder(siblings).map((p) => p.node.id)).toEqual(['r', 'z', 'x', 'y']);
    const reversed = treeOrder(siblings, (a, b) => b.id.localeCompare(a.id));
    expect(reversed.map((p) => p.node.id)).toEqual(['r', 'z', 'y', 'x']);
  });

  it('should keep a node whose parent is missing as a root, and group children under their parent', () => {
    const partial = [node('a1', 'a'), node('b', 'r', 1)];
    expect(treeOrder(partial).map((p) => [p.node.id, p.depth])).toEqual([
      ['a1', 0],
      ['b', 0],
    ]);
    expect(depthOf(partial, 'a1')).toBe(0);
    const children = childrenByParent(nodes, (a, b) => a.position - b.position);
    expect(children.get('r')?.map((n) => n.id)).toEqual(['a', 'b']);
    expect(children.get(null)?.map((n) => n.id)).toEqual(['r']);
  });

  it('should stop at a loop of parents instead of walking forever', () => {
    const looped = [node('x', 'y'), node('y', 'x'), node('r', null)];
    expect(ancestorIds(looped, 'x')).toEqual(['y']);
    expect(isInSubtree(looped, 'r', 'x')).toBe(false);
    expect(subtreeIds(looped, 'x')).toEqual(['x', 'y']);
    expect(treeOrder(looped).map((p) => p.node.id)).toEqual(['r']);
  });

  it('should walk a 10,000-deep chain without overflowing the stack', () => {
    const chain = Array.from({ length: 10_000 }, (_, i) => node(`n${i}`, i ? `n${i - 1}` : null));
    expect(treeOrder(chain).at(-1)).toMatchObject({ node: { id: 'n9999' }, depth: 9_999 });
    expect(depthOf(chain, 'n9999')).toBe(9_999);
  });
});
