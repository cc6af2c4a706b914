import { describe, expect, it } from 'vitest';
import type { MapEvent } from '../api/results.ts';
import { aMap, aNode, aNodeDetail, nodeCreated } from '../testing/fixtures.ts';
import { MapStore } from './map-store.svelte.ts';

function loadedStore() {
  const store = new MapStore();
  store.load({
    ...aMap({ lastSeq: 3 }),
    nodes: [aNode({ id: 'root' }), aNode({ id: 'a', parentId: 'root' })],
    dependencies: [],
  });
  return store;
}

const at = new Date(0).toISOString();

describe('MapStore', () => {
  it('should apply events in sequence and track the last sequence number', () => {
    const store = loadedStore();
    expect(store.apply(nodeCreated(4, aNode({ id: 'b', parentId: 'root' })))).toBe('applied');
    expect(store.apply(nodeCreated(5, aNode({ id: 'c', parentId: 'b' })))).toBe('applied');
    expect(Object.keys(store.nodes).sort()).toEqual(['a', 'b', 'c', 'root']);
    expect(store.lastSeq).toBe(5);
    expect(store.appliedCount).toBe(2);
  });

  it('should ignore an event it has already applied (a resumed subscription may repeat it)', () => {
    const store = loadedStore();
    store.apply(nodeCreated(4, aNode({ id: 'b', parentId: 'root', question: 'first' })));
    expect(store.apply(nodeCreated(4, aNode({ id: 'b', parentId: 'root', question: 'again' })))).toBe('duplicate');
    expect(store.apply(nodeCreated(2, aNode({ id: 'old' })))).toBe('duplicate');
    expect(store.nodes.b?.question).toBe('first');
    expect(store.nodes.old).toBeUndefined();
    expect(store.appliedCount).toBe(1);
  });

  it('should refuse an event that would leave a gap', () => {
    const store = loadedStore();
    expect(store.apply(nodeCreated(6, aNode({ id: 'b' })))).toBe('gap');
    expect(store.nodes.b).toBeUndefined();
    expect(store.lastSeq).toBe(3);
  });

  it('should remove a deleted subtree with its dependencies and panel details', () => {
    const store = loadedStore();
    store.apply(nodeCreated(4, aNode({ id: 'b', parentId: 'root' })));
    store.apply({
      __typename: 'DependencyAdded',
      mapId: 'm1',
      seq: 5,
      at,
      nodeId: 'a',
      dependsOnId: 'b',
      dependency: { id: 'd1', nodeId: 'a', dependsOnId: 'b' },
    });
    expect(store.dependenciesOf('a')).toHaveLength(1);
    store.apply({ __typename: 'NodeDeleted', mapId: 'm1', seq: 6, at, nodeIds: ['b'], dependencyIds: ['d1'] });
    expect(store.nodes.b).toBeUndefined();
    expect(store.dependenciesOf('a')).toHaveLength(0);
  });

  it('should mark a node stale from its NodeStale event, and current again when it is concluded', () => {
    const store = loadedStore();
    const concluded = aNode({ id: 'root', status: 'COMPLETED', conclusion: 'Yes.', version: 2 });
    store.apply({ __typename: 'NodeConcluded', mapId: 'm1', seq: 4, at, node: concluded });
    const stale = { ...concluded, staleReason: 'CHILD_ADDED' as const, staleSourceQuestion: 'Rent?', staleSince: at };
    expect(store.apply({ __typename: 'NodeStale', mapId: 'm1', seq: 5, at, node: stale })).toBe('applied');
    expect(store.nodes.root).toMatchObject({
      staleReason: 'CHILD_ADDED',
      staleSourceQuestion: 'Rent?',
      conclusion: 'Yes.',
    });
    store.apply({ __typename: 'NodeConcluded', mapId: 'm1', seq: 6, at, node: { ...concluded, version: 3 } });
    expect(store.nodes.root?.staleReason).toBeNull();
  });

  it('should not let an older mutation result overwrite a newer version from an event', () => {
    const store = loadedStore();
    store.apply({
      __typename: 'NodeUpdated',
      mapId: 'm1',
      seq: 4,
      at,
      fields: ['question'],
      node: aNode({ id: 'a', parentId: 'root', question: 'v3', version: 3 }),
    });
    store.upsertNode(aNode({ id: 'a', parentId: 'root', question: 'v2', version: 2 }));
    expect(store.nodes.a?.question).toBe('v3');
  });

  it('should add a posted message to the open panel once, however often it arrives', () => {
    const store = loadedStore();
    store.setDetail(
      aNodeDetail({
        id: 'a',
        parentId: 'root',
        conversations: [
          { id: 'c-dec', kind: 'DECOMPOSE', messages: [] },
          { id: 'c-con', kind: 'CONCLUDE', messages: [] },
        ],
      }),
    );
    const message = {
      id: 'msg1',
      conversationId: 'c-dec',
      parentId: null,
      role: 'USER',
      kind: 'TEXT',
      content: 'hi',
      metadata: null,
      createdAt: at,
    } as const;
    const event: MapEvent = { __typename: 'MessagePosted', mapId: 'm1', seq: 4, at, nodeId: 'a', message };
    store.apply(event);
    // The NODE query may already have returned the message: applying it to details again must not duplicate it.
    store.setDetail({ ...store.details.a!, conversations: store.details.a!.conversations });
    store.apply({ ...event, seq: 5 });
    expect(store.details.a?.conversations[0]?.messages.map((m) => m.id)).toEqual(['msg1']);
    store.apply({
      __typename: 'ConversationCleared',
      mapId: 'm1',
      seq: 6,
      at,
      nodeId: 'a',
      conversation: 'DECOMPOSE',
      clearedCount: 1,
    });
    expect(store.details.a?.conversations[0]?.messages).toEqual([]);
    // An undo of the clearing shows the message again; an undo of its posting hides it.
    const changed = (seq: number, deletedAt: string | null): MapEvent => ({
      __typename: 'MessagesChanged',
      mapId: 'm1',
      seq,
      at,
      nodeId: 'a',
      conversationId: 'c-dec',
      messages: [{ ...message, deletedAt }],
    });
    store.apply(changed(7, null));
    expect(store.details.a?.conversations[0]?.messages.map((m) => m.id)).toEqual(['msg1']);
    store.apply(changed(8, at));
    expect(store.details.a?.conversations[0]?.messages).toEqual([]);
  });

  it('should add and remove context items of the open panel', () => {
    const store = loadedStore();
    store.setDetail(aNodeDetail({ id: 'a' }));
    const item = { id: 'ctx1', title: 'Rent', content: '3k', createdAt: at };
    store.apply({ __typename: 'ContextUpdated', mapId: 'm1', seq: 4, at, nodeId: 'a', action: 'ADDED', item });
    expect(store.details.a?.contextItems).toEqual([item]);
    store.apply({ __typename: 'ContextUpdated', mapId: 'm1', seq: 5, at, nodeId: 'a', action: 'REMOVED', item });
    expect(store.details.a?.contextItems).toEqual([]);
  });

  it('should mark the map deleted and update map fields', () => {
    const store = loadedStore();
    store.apply({
      __typename: 'MapUpdated',
      mapId: 'm1',
      seq: 4,
      at,
      fields: ['title'],
      map: aMap({ title: 'Renamed', lastSeq: 4 }),
    });
    expect(store.map?.title).toBe('Renamed');
    store.apply({ __typename: 'MapDeleted', mapId: 'm1', seq: 5, at, deletedMapId: 'm1' });
    expect(store.deleted).toBe(true);
  });
});
