import { describe, expect, it } from 'vitest';
import { findCycle, topologicalOrder } from './dependency-graph.ts';
import { readiness } from './readiness.ts';

const edge = (nodeId: string, dependsOnId: string) => ({ nodeId, dependsOnId });

describe('findCycle', () => {
  it('should refuse a node depending on itself', () => {
    expect(findCycle([], edge('a', 'a'))).toEqual(['a', 'a']);
  });
  it('should name the whole path of a cycle the new edge would close', () => {
    const edges = [edge('b', 'c'), edge('c', 'd')];
    expect(findCycle(edges, edge('d', 'b'))).toEqual(['d', 'b', 'c', 'd']);
  });
  it('should accept an edge that keeps the graph acyclic', () => {
    expect(findCycle([edge('b', 'c'), edge('a', 'c')], edge('a', 'b'))).toBeNull();
  });
  it('should find a cycle 5,000 nodes long without overflowing the stack', () => {
    const edges = Array.from({ length: 4999 }, (_, i) => edge(`n${i}`, `n${i + 1}`));
    const path = findCycle(edges, edge('n4999', 'n0'));
    expect(path).toHaveLength(5001);
    expect(path?.[0]).toBe('n4999');
    expect(path?.at(-1)).toBe('n4999');
  });
});

describe('topologicalOrder', () => {
  it('should put dependencies first and keep sibling order otherwise', () => {
    expect(topologicalOrder(['a', 'b', 'c', 'd'], [edge('a', 'c'), edge('b', 'a')])).toEqual(['c', 'a', 'b', 'd']);
  });
  it('should throw on a cycle', () => {
    expect(() => topologicalOrder(['a', 'b'], [edge('a', 'b'), edge('b', 'a')])).toThrow(/cycle/);
  });
});

describe('readiness', () => {
  it('should be ready when every dependency is completed', () => {
    expect(readiness([{ id: 'x', question: 'q', status: 'COMPLETED' }]).ready).toBe(true);
  });
  it('should name the open dependencies when blocked', () => {
    const result = readiness([
      { id: 'x', question: '市场有多大?', status: 'PENDING' },
      { id: 'y', question: 'Who buys?', status: 'COMPLETED' },
    ]);
    expect(result.ready).toBe(false);
    if (!result.ready) {
      expect(result.openDependencies.map((n) => n.id)).toEqual(['x']);
      expect(result.reason).toContain('市场有多大?');
    }
  });
});
