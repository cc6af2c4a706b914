import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { layoutTree, NODE_HEIGHT, NODE_WIDTH } from './tree-layout.ts';

const tree = [
  aNode({ id: 'root' }),
  aNode({ id: 'b', parentId: 'root', position: 1 }),
  aNode({ id: 'a', parentId: 'root', position: 0 }),
  aNode({ id: 'a1', parentId: 'a', position: 0 }),
  aNode({ id: 'a2', parentId: 'a', position: 1 }),
];

function overlaps(p: { x: number; y: number }, q: { x: number; y: number }) {
  return Math.abs(p.x - q.x) < NODE_WIDTH && Math.abs(p.y - q.y) < NODE_HEIGHT;
}

describe('layoutTree', () => {
  it('should place each generation in its own column, left to right', () => {
    const layout = layoutTree(tree, []);
    const x = (id: string) => layout.byId.get(id)!.x;
    expect(x('root')).toBeLessThan(x('a'));
    expect(x('a')).toBe(x('b'));
    expect(x('a')).toBeLessThan(x('a1'));
  });

  it('should order siblings by position, top to bottom', () => {
    const layout = layoutTree(tree, []);
    expect(layout.byId.get('a')!.y).toBeLessThan(layout.byId.get('b')!.y);
    expect(layout.byId.get('a1')!.y).toBeLessThan(layout.byId.get('a2')!.y);
  });

  it('should never let two cards overlap, even in a wide tree', () => {
    const nodes = [aNode({ id: 'n0' })];
    for (let i = 1; i < 200; i++)
      nodes.push(aNode({ id: `n${i}`, parentId: `n${Math.floor((i - 1) / 5)}`, position: i }));
    const { placed } = layoutTree(nodes, []);
    expect(placed).toHaveLength(200);
    for (let i = 0; i < placed.length; i++)
      for (let j = i + 1; j < placed.length; j++) expect(overlaps(placed[i]!, placed[j]!)).toBe(false);
  });

  it('should draw one edge per parent link and one per dependency, each its own kind', () => {
    const layout = layoutTree(tree, [{ id: 'd1', nodeId: 'b', dependsOnId: 'a2' }]);
    expect(layout.treeEdges.map((e) => `${e.from}>${e.to}`).sort()).toEqual(['a>a1', 'a>a2', 'root>a', 'root>b']);
    expect(layout.dependencyEdges).toEqual([expect.objectContaining({ from: 'a2', to: 'b' })]);
    expect(layout.dependencyEdges[0]!.path).toMatch(/^M[\d.-]+,[\d.-]+ L/);
  });

  it('should skip dependencies on nodes that are not in the map', () => {
    expect(layoutTree(tree, [{ id: 'd1', nodeId: 'b', dependsOnId: 'gone' }]).dependencyEdges).toEqual([]);
  });

  it('should draw a band around each divergent level', () => {
    const nodes = [
      aNode({ id: 'root' }),
      aNode({ id: 't1', parentId: 'root', divergentLevel: 1, divergentRole: 'TASK' }),
      aNode({ id: 't2', parentId: 'root', position: 1, divergentLevel: 1, divergentRole: 'TASK' }),
      aNode({ id: 's1', parentId: 't1', divergentLevel: 2, divergentRole: 'SUMMARY' }),
    ];
    const layout = layoutTree(nodes, []);
    expect(layout.levels.map((l) => l.level)).toEqual([1, 2]);
    const band = layout.levels[0]!;
    for (const id of ['t1', 't2']) {
      const p = layout.byId.get(id)!;
      expect(p.x).toBeGreaterThan(band.x);
      expect(p.y + NODE_HEIGHT).toBeLessThan(band.y + band.height);
    }
    expect(layoutTree(tree, []).levels).toEqual([]);
  });

  it('should keep nodes whose parent is missing as extra roots', () => {
    const layout = layoutTree([aNode({ id: 'root' }), aNode({ id: 'orphan', parentId: 'deleted' })], []);
    expect(layout.placed.map((p) => p.depth)).toEqual([0, 0]);
  });

  it('should place proposed children as ghost cards after the real ones', () => {
    const layout = layoutTree(tree, [], [{ id: 'ghost:1', parentId: 'b' }]);
    const ghost = layout.byId.get('ghost:1')!;
    expect(ghost).toMatchObject({ ghost: true, parentId: 'b', depth: 2 });
    expect(layout.treeEdges.map((e) => `${e.from}>${e.to}`)).toContain('b>ghost:1');
  });

  it('should route a line between two cards on request, and none for a card it does not show', () => {
    const layout = layoutTree(tree, []);
    expect(layout.route('a2', 'b')?.path).toMatch(/^M/);
    expect(layout.route('a2', 'gone')).toBeNull();
  });
});
