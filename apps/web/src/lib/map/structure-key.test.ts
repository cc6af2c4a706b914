import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { structureKey } from './structure-key.ts';

describe('structureKey', () => {
  const nodes = [aNode({ id: 'r' }), aNode({ id: 'a', parentId: 'r' })];
  const key = structureKey(nodes, []);

  it('should not change when only content changes', () => {
    expect(structureKey([nodes[0]!, { ...nodes[1]!, question: 'edited', status: 'COMPLETED', version: 9 }], [])).toBe(
      key,
    );
  });

  it('should change when a node moves, is added or a dependency appears', () => {
    expect(structureKey([nodes[0]!, { ...nodes[1]!, position: 2 }], [])).not.toBe(key);
    expect(structureKey([...nodes, aNode({ id: 'b', parentId: 'r' })], [])).not.toBe(key);
    expect(structureKey(nodes, [{ id: 'd', nodeId: 'a', dependsOnId: 'r' }])).not.toBe(key);
    expect(structureKey([nodes[0]!, { ...nodes[1]!, divergentLevel: 1 }], [])).not.toBe(key);
  });
});
