import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { dependencyCandidates } from './dependency-candidates.ts';
import { openDependencies, quotedList, waitingQuestions } from './open-dependencies.ts';

const nodes = Object.fromEntries(
  [
    aNode({ id: 'root', question: 'Root' }),
    aNode({ id: 'a', parentId: 'root', question: 'Alpha' }),
    aNode({ id: 'a1', parentId: 'a', question: 'Alpha one' }),
    aNode({ id: 'b', parentId: 'root', question: 'Beta', status: 'COMPLETED' }),
    aNode({ id: 'c', parentId: 'root', question: 'Gamma' }),
  ].map((n) => [n.id, n]),
);

describe('dependencyCandidates', () => {
  it('should offer neither the node, its ancestors, its descendants nor existing dependencies', () => {
    const ids = dependencyCandidates('a', nodes, [{ id: 'd', nodeId: 'a', dependsOnId: 'c' }]).map((n) => n.id);
    expect(ids).toEqual(['b']);
  });

  it('should filter by the search text, ignoring case', () => {
    expect(dependencyCandidates('c', nodes, [], 'ALPHA').map((n) => n.id)).toEqual(['a', 'a1']);
  });
});

describe('openDependencies', () => {
  it('should list what a node still waits for: dependencies not yet concluded', () => {
    const deps = [
      { id: 'd1', nodeId: 'c', dependsOnId: 'a' },
      { id: 'd2', nodeId: 'c', dependsOnId: 'b' },
    ];
    expect(openDependencies('c', nodes, deps).map((n) => n.question)).toEqual(['Alpha']);
    expect(openDependencies('a', nodes, deps)).toEqual([]);
  });
});

describe('waitingQuestions', () => {
  it('should name, for each waiting node, the questions it still waits for, and leave out concluded ones', () => {
    const deps = [
      { id: 'd1', nodeId: 'c', dependsOnId: 'a' },
      { id: 'd2', nodeId: 'c', dependsOnId: 'b' },
      { id: 'd3', nodeId: 'c', dependsOnId: 'a1' },
      { id: 'd4', nodeId: 'a1', dependsOnId: 'b' },
    ];
    const waiting = waitingQuestions(nodes, deps);
    expect(waiting.get('c')).toEqual(['Alpha', 'Alpha one']);
    expect(waiting.has('a1')).toBe(false);
  });

  it('should quote the questions and list them as each language does', () => {
    expect(quotedList(['Alpha', 'Beta'], 'en')).toBe('“Alpha”, “Beta”');
    expect(quotedList(['市场多大？', '选址？'], 'zh')).toBe('“市场多大？”、“选址？”');
  });
});
