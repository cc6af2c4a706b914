import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { moveCandidates } from './move-candidates.ts';

const nodes = Object.fromEntries(
  [
    aNode({ id: 'root', question: 'Root' }),
    aNode({ id: 'a', parentId: 'root', question: 'Alpha' }),
    aNode({ id: 'a1', parentId: 'a', question: 'Alpha one' }),
    aNode({ id: 'b', parentId: 'root', question: 'Beta' }),
  ].map((n) => [n.id, n]),
);

describe('moveCandidates', () => {
  it('should offer every node but the one moved and its present parent, descendants included', () => {
    expect(moveCandidates('a', nodes).map((n) => n.id)).toEqual(['a1', 'b']);
  });

  it('should filter by the search text, ignoring case', () => {
    expect(moveCandidates('b', nodes, 'ALPHA').map((n) => n.id)).toEqual(['a', 'a1']);
  });
});
