import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MapStore } from '../map/map-store.svelte.ts';
import { aMap, aNode, nodeCreated } from '../testing/fixtures.ts';
import type { EventSink, MapEventSource } from './event-source.ts';
import { MapFeed } from './map-feed.svelte.ts';

/** A scripted event source that records every subscription (the `after` it was opened with). */
function fakeSource() {
  const subscriptions: { after: number; sink: EventSink; closed: boolean }[] = [];
  const connected: (() => void)[] = [];
  const source: MapEventSource = {
    subscribe(_mapId, after, sink) {
      const entry = { after, sink, closed: false };
      subscriptions.push(entry);
      return () => {
        entry.closed = true;
      };
    },
    onConnected(listener) {
      connected.push(listener);
      return () => {};
    },
  };
  return {
    source,
    subscriptions,
    connect: () => {
      for (const listener of connected) listener();
    },
  };
}

function storeAt(seq: number) {
  const store = new MapStore();
  store.load({ ...aMap({ lastSeq: seq }), nodes: [aNode({ id: 'root' })], dependencies: [] });
  return store;
}

describe('MapFeed', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('should subscribe after the loaded sequence number and go live', () => {
    const store = storeAt(7);
    const { source, subscriptions, connect } = fakeSource();
    const feed = new MapFeed(store, source, 'm1');
    feed.start();
    expect(subscriptions.map((s) => s.after)).toEqual([7]);
    connect();
    expect(feed.state).toBe('live');
  });

  it('should resubscribe after a drop from the last applied event, losing and repeating nothing', () => {
    const store = storeAt(0);
    const { source, subscriptions } = fakeSource();
    const feed = new MapFeed(store, source, 'm1', { retryDelayMs: 100 });
    feed.start();
    subscriptions[0]!.sink.next(nodeCreated(1, aNode({ id: 'a', parentId: 'root' })));
    subscriptions[0]!.sink.next(nodeCreated(2, aNode({ id: 'b', parentId: 'root' })));
    subscriptions[0]!.sink.error(new Error('socket closed'));
    expect(feed.state).toBe('reconnecting');
    expect(subscriptions[0]!.closed).toBe(true);

    vi.advanceTimersByTime(100);
    expect(subscriptions.map((s) => s.after)).toEqual([0, 2]);
    // The server replays from `after`; an overlapping event is ignored, the missed one applied.
    subscriptions[1]!.sink.next(nodeCreated(2, aNode({ id: 'b', parentId: 'root' })));
    subscriptions[1]!.sink.next(nodeCreated(3, aNode({ id: 'c', parentId: 'root' })));
    expect(store.lastSeq).toBe(3);
    expect(store.appliedCount).toBe(3);
    expect(feed.resumes).toBe(1);
    expect(feed.state).toBe('live');
  });

  it('should ignore late events of a dropped subscription', () => {
    const store = storeAt(0);
    const { source, subscriptions } = fakeSource();
    const feed = new MapFeed(store, source, 'm1', { retryDelayMs: 10 });
    feed.start();
    subscriptions[0]!.sink.error(new Error('drop'));
    subscriptions[0]!.sink.next(nodeCreated(1, aNode({ id: 'late' })));
    expect(store.nodes.late).toBeUndefined();
  });

  it('should resubscribe when an event would leave a gap', () => {
    const store = storeAt(0);
    const { source, subscriptions } = fakeSource();
    const feed = new MapFeed(store, source, 'm1', { retryDelayMs: 10 });
    feed.start();
    subscriptions[0]!.sink.next(nodeCreated(2, aNode({ id: 'skipped-one' })));
    vi.advanceTimersByTime(10);
    expect(subscriptions.map((s) => s.after)).toEqual([0, 0]);
    expect(store.nodes['skipped-one']).toBeUndefined();
  });

  it('should back off between failed attempts and stop for good when stopped', () => {
    const store = storeAt(0);
    const { source, subscriptions } = fakeSource();
    const feed = new MapFeed(store, source, 'm1', { retryDelayMs: 100, maxDelayMs: 300 });
    feed.start();
    subscriptions[0]!.sink.error(new Error('down'));
    vi.advanceTimersByTime(100);
    subscriptions[1]!.sink.error(new Error('still down'));
    vi.advanceTimersByTime(199);
    expect(subscriptions).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(subscriptions).toHaveLength(3);
    feed.stop();
    subscriptions[2]!.sink.error(new Error('after stop'));
    vi.advanceTimersByTime(10_000);
    expect(subscriptions).toHaveLength(3);
    expect(feed.state).toBe('closed');
  });

  it('should stop when the map is deleted and the stream ends', () => {
    const store = storeAt(0);
    const { source, subscriptions } = fakeSource();
    const feed = new MapFeed(store, source, 'm1', { retryDelayMs: 10 });
    feed.start();
    subscriptions[0]!.sink.next({ __typename: 'MapDeleted', mapId: 'm1', seq: 1, at: '', deletedMapId: 'm1' });
    subscriptions[0]!.sink.complete();
    vi.advanceTimersByTime(100);
    expect(subscriptions).toHaveLength(1);
    expect(feed.state).toBe('closed');
  });
});
