import { describe, expect, it } from 'vitest';
import { InMemoryStore } from '../testing/in-memory-store.ts';
import { nextBottomUpNode } from './next-bottom-up-node.ts';

async function tree() {
  const store = new InMemoryStore();
  const map = store.addMap({ problem: 'p' });
  const root = await store.createNode({ mapId: map.id, parentId: null, question: 'root', goal: '' });
  const a = await store.createNode({ mapId: map.id, parentId: root.id, question: 'a', goal: '' });
  const b = await store.createNode({ mapId: map.id, parentId: root.id, question: 'b', goal: '' });
  return { store, root, a, b };
}

describe('nextBottomUpNode', () => {
  it('should wait while a sibling is still open', async () => {
    const { store, a } = await tree();
    await store.concludeNode(a.id, { text: 'A', kind: 'ANALYTICAL' });
    expect(await nextBottomUpNode(store, a.id)).toBeNull();
  });
  it('should name the parent when its last child concludes', async () => {
    const { store, root, a, b } = await tree();
    await store.concludeNode(a.id, { text: 'A', kind: 'ANALYTICAL' });
    await store.concludeNode(b.id, { text: 'B', kind: 'ANALYTICAL' });
    expect(await nextBottomUpNode(store, b.id)).toBe(root.id);
  });
  it('should stop at the root', async () => {
    const { store, root } = await tree();
    await store.concludeNode(root.id, { text: 'R', kind: 'DECISION' });
    expect(await nextBottomUpNode(store, root.id)).toBeNull();
  });
});
