import { describe, expect, it } from 'vitest';
import { MapStore } from '../map/map-store.svelte.ts';
import { aMap, aNode, nodeCreated } from '../testing/fixtures.ts';
import type { ConnectionListener, EventSink, MapEventSource } from './event-source.ts';
import { MapFeed } from './map-feed.svelte.ts';

/**
 * A scripted event source: records every subscription, and lets the test drop and restore the
 * connection the way graphql-ws does (closed, then connected again with the subscription sent anew).
 */
function scriptedSource() {
  const subscriptions: { after: () => number; sink: EventSink; closed: boolean; sentAfter: number[] }[] = [];
  const listeners: ConnectionListener[] = [];
  const source: MapEventSource = {
    subscribe(_mapId, after, sink) {
      const entry = { after, sink, closed: false, sentAfter: [after()] };
      subscriptions.push(entry);
      return () => {
        entry.closed = true;
      };
    },
    onConnection(listener) {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  return {
    source,
    subscriptions,
    connect: (retry = false) => {
      if (retry) for (const s of subscriptions) if (!s.closed) s.sentAfter.push(s.after());
      for (const listener of [...listeners]) listener.connected(retry);
    },
    drop: () => {
      for (const listener of [...listeners]) listener.closed();
    },
  };
}

function storeAt(seq: number) {
  const store = new MapStore();
  store.load({ ...aMap({ lastSeq: seq }), nodes: [aNode({ id: 'root' })], dependencies: [] });
  return store;
}

describe('MapFeed', () => {
  it('should subscribe after the loaded sequence number and go live', () => {
    const store = storeAt(7);
    const { source, subscriptions, connect } = scriptedSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    expect(subscriptions.map((s) => s.sentAfter)).toEqual([[7]]);
    connect();
    expect(feed.state).toBe('live');
  });

  it('should resume after a reconnect from the last applied event, losing and repeating nothing', () => {
    const store = storeAt(0);
    const { source, subscriptions, connect, drop } = scriptedSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    connect();
    subscriptions[0]!.sink.next(nodeCreated(1, aNode({ id: 'a', parentId: 'root' })));
    subscriptions[0]!.sink.next(nodeCreated(2, aNode({ id: 'b', parentId: 'root' })));
    drop();
    expect(feed.state).toBe('reconnecting');

    connect(true);
    // The source sent the same subscription again, now after the last applied event.
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]!.sentAfter).toEqual([0, 2]);
    // The server replays from `after`; an overlapping event is ignored, the missed one applied.
    subscriptions[0]!.sink.next(nodeCreated(2, aNode({ id: 'b', parentId: 'root' })));
    subscriptions[0]!.sink.next(nodeCreated(3, aNode({ id: 'c', parentId: 'root' })));
    expect(store.lastSeq).toBe(3);
    expect(store.appliedCount).toBe(3);
    expect(feed.resumes).toBe(1);
    expect(feed.state).toBe('live');
  });

  it('should subscribe again from the last applied event when an event would leave a gap', () => {
    const store = storeAt(0);
    const { source, subscriptions } = scriptedSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    subscriptions[0]!.sink.next(nodeCreated(1, aNode({ id: 'a', parentId: 'root' })));
    subscriptions[0]!.sink.next(nodeCreated(3, aNode({ id: 'skipped-one' })));
    expect(subscriptions[0]!.closed).toBe(true);
    expect(subscriptions.map((s) => s.sentAfter)).toEqual([[0], [1]]);
    expect(store.nodes['skipped-one']).toBeUndefined();
    expect(feed.resumes).toBe(1);
  });

  it('should ignore late events of a dropped subscription', () => {
    const store = storeAt(0);
    const { source, subscriptions } = scriptedSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    subscriptions[0]!.sink.next(nodeCreated(2, aNode({ id: 'gap' })));
    subscriptions[0]!.sink.next(nodeCreated(1, aNode({ id: 'late' })));
    expect(store.nodes.late).toBeUndefined();
  });

  it('should say it failed, and stay failed, when the source gives up', () => {
    const store = storeAt(0);
    const { source, subscriptions, connect } = scriptedSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    subscriptions[0]!.sink.error({ code: 4500, reason: 'Internal server error' });
    expect(feed.state).toBe('failed');
    expect(feed.error).toBe('connection closed (4500: Internal server error)');
    expect(subscriptions[0]!.closed).toBe(true);
    connect(true);
    expect(feed.state).toBe('failed');
    expect(subscriptions).toHaveLength(1);
  });

  it('should subscribe again when the server ends the stream of a map that still exists', () => {
    const store = storeAt(4);
    const { source, subscriptions } = scriptedSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    subscriptions[0]!.sink.complete();
    expect(subscriptions.map((s) => s.sentAfter)).toEqual([[4], [4]]);
    expect(feed.state).not.toBe('closed');
  });

  it('should stop when the map is deleted and the stream ends, and for good when stopped', () => {
    const store = storeAt(0);
    const { source, subscriptions, connect } = scriptedSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    subscriptions[0]!.sink.next({ __typename: 'MapDeleted', mapId: 'm1', seq: 1, at: '', deletedMapId: 'm1' });
    subscriptions[0]!.sink.complete();
    expect(subscriptions).toHaveLength(1);
    expect(feed.state).toBe('closed');
    connect(true);
    expect(feed.state).toBe('closed');
  });
});
