import { DELETE_MAP, UPDATE_NODE, VIEWER_EVENTS, VIEWER_EVENTS_FEED } from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { print } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../src/auth/tokens.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { openSubscriber, type Subscriber, type TransportName } from './helpers/subscription-transports.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = await testProviders();

interface FeedEdge {
  cursor: string;
  event: { __typename: string; mapId: string; seq: number };
}

/** `[mapId, seq]` of each edge, to compare feeds. */
const places = (edges: FeedEdge[]) => edges.map((edge) => [edge.event.mapId, edge.event.seq]);

/** The sequence numbers each map's events arrived with, in arrival order (the feed keeps order per map). */
const perMap = (edges: FeedEdge[]) => {
  const seqs: Record<string, number[]> = {};
  for (const { event } of edges) seqs[event.mapId] = [...(seqs[event.mapId] ?? []), event.seq];
  return seqs;
};

describe.each(providers)('the viewer-wide event feed on %s', (provider) => {
  let server: TestServer;
  const subscribers: Subscriber[] = [];

  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterEach(() => {
    for (const subscriber of subscribers.splice(0)) subscriber.dispose();
  });
  afterAll(() => server?.close());

  /** Subscribes to the feed as `token` over `transport`; results are the feed's edges. */
  function feed(token: string, variables: Record<string, unknown> = {}, transport: TransportName = 'graphql-ws') {
    const subscriber = openSubscriber(transport, server.endpoint, token);
    subscribers.push(subscriber);
    const sub = subscriber.subscribe({ query: print(VIEWER_EVENTS_FEED), variables });
    return {
      ...sub,
      edges: async (count: number) => (await sub.waitFor(count)).map((result) => result.viewerEvents as FeedEdge),
    };
  }

  /**
   * Waits until `count` live feeds of the viewer listen (a feed without `after` only sees what follows): one
   * subscription to the viewer's feed each, whatever the number of maps.
   */
  const listening = (count = 1, viewerId = server.alice.id) =>
    expect.poll(() => server.app.bus.feedListenerCount(viewerId)).toBe(count);

  it('should replay exactly what was missed on every map after a dropped connection, then go on live', async () => {
    const alice = server.connect(server.alice.token).client;
    const a = await createMap(alice, 'Map A');
    const b = await createMap(alice, 'Map B');
    const first = feed(server.alice.token, { mapIds: [a, b] });
    await listening();
    const rootA = await createNode(alice, a, 'A root'); // a:2
    const rootB = await createNode(alice, b, 'B root'); // b:2
    const seen = await first.edges(2);
    expect(places(seen)).toEqual([
      [a, 2],
      [b, 2],
    ]);
    first.stop();
    // While disconnected, both maps move on.
    await createNode(alice, b, 'missed b3', rootB.id);
    await createNode(alice, a, 'missed a3', rootA.id);
    await createNode(alice, a, 'missed a4', rootA.id);
    await createNode(alice, b, 'missed b4', rootB.id);
    const cursor = seen.at(-1)!.cursor;
    for (const transport of ['graphql-ws', 'sse distinct connections', 'sse single connection'] as const) {
      const resumed = feed(server.alice.token, { after: cursor, mapIds: [a, b] }, transport);
      // Each missed event once, in order per map (maps replay side by side).
      expect(perMap(await resumed.edges(4))).toEqual({ [a]: [3, 4], [b]: [3, 4] });
      resumed.stop();
    }
    // From the last cursor of a resumed feed, only what follows arrives, live.
    const resumed = feed(server.alice.token, { after: cursor, mapIds: [a, b] });
    const replayed = await resumed.edges(4);
    await createNode(alice, a, 'live a5', rootA.id);
    const all = await resumed.edges(5);
    expect(places(all).slice(4)).toEqual([[a, 5]]);
    const again = feed(server.alice.token, { after: replayed.at(-1)!.cursor, mapIds: [a, b] });
    expect(places(await again.edges(1))).toEqual([[a, 5]]);
    await createNode(alice, b, 'live b5', rootB.id);
    expect(places(await again.edges(2))).toEqual([
      [a, 5],
      [b, 5],
    ]);
  });

  it('should include a map created while subscribed, from its first event', async () => {
    const alice = server.connect(server.alice.token).client;
    const existing = await createMap(alice, 'Existing');
    const sub = feed(server.alice.token, { types: ['MapCreated', 'NodeCreated'] });
    await listening();
    const fresh = await createMap(alice, 'Created while subscribed');
    await createNode(alice, fresh, 'its root');
    await createNode(alice, existing, 'the older map goes on too');
    const edges = await sub.edges(3);
    expect(edges.map((edge) => [edge.event.__typename, edge.event.mapId, edge.event.seq])).toEqual([
      ['MapCreated', fresh, 1],
      ['NodeCreated', fresh, 2],
      ['NodeCreated', existing, 2],
    ]);
  });

  it('should filter by maps and by event types', async () => {
    const alice = server.connect(server.alice.token).client;
    const a = await createMap(alice, 'Filtered in');
    const b = await createMap(alice, 'Filtered out');
    const byMap = feed(server.alice.token, { mapIds: [a], after: undefined });
    const byType = feed(server.alice.token, { mapIds: [a, b], types: ['NodeUpdated'] });
    await listening(2);
    const rootB = await createNode(alice, b, 'not for byMap');
    const node = await createNode(alice, a, 'for byMap');
    await createNode(alice, b, 'not for byMap either', rootB.id);
    await call(alice, UPDATE_NODE, {
      input: { id: node.id, expectedVersion: node.version, goal: 'a goal' },
    });
    expect(places(await byMap.edges(2))).toEqual([
      [a, 2],
      [a, 3],
    ]);
    const updates = await byType.edges(1);
    expect(updates.map((edge) => [edge.event.__typename, edge.event.mapId])).toEqual([['NodeUpdated', a]]);
    expect(byMap.results).toHaveLength(2);
    expect(byType.results).toHaveLength(1);
  });

  it('should never show another viewer’s maps, even asked for by id', async () => {
    const alice = server.connect(server.alice.token).client;
    const bob = server.connect(server.bob.token).client;
    const alicesMap = await createMap(alice, 'Alice’s');
    const bobsMap = await createMap(bob, 'Bob’s');
    const bobsFeed = feed(server.bob.token, { mapIds: [alicesMap, bobsMap] });
    await listening(1, server.bob.id);
    await createNode(alice, alicesMap, 'private');
    await createNode(bob, bobsMap, 'Bob’s own');
    expect(places(await bobsFeed.edges(1))).toEqual([[bobsMap, 2]]);
    const page = await call(bob, VIEWER_EVENTS, { mapIds: [alicesMap] });
    expect(page.edges).toEqual([]);
    const all = await call(bob, VIEWER_EVENTS, { first: 1000 });
    expect(all.edges.every((edge) => edge.event.__typename !== 'MapCreated' || edge.event.mapId !== alicesMap)).toBe(
      true,
    );
    expect(new Set(all.edges.map((edge) => (edge.event as { mapId: string }).mapId)).has(alicesMap)).toBe(false);
    expect(bobsFeed.results).toHaveLength(1);
  });

  it('should end a deleted map’s events with its MapDeleted while the others go on', async () => {
    const alice = server.connect(server.alice.token).client;
    const doomed = await createMap(alice, 'Doomed');
    const kept = await createMap(alice, 'Kept');
    const sub = feed(server.alice.token, { mapIds: [doomed, kept] });
    await listening();
    await call(alice, DELETE_MAP, { id: doomed });
    await createNode(alice, kept, 'still here');
    const edges = await sub.edges(2);
    expect(edges.map((edge) => [edge.event.__typename, edge.event.mapId])).toEqual([
      ['MapDeleted', doomed],
      ['NodeCreated', kept],
    ]);
    // Resuming after its deletion never brings the deleted map back.
    const resumed = feed(server.alice.token, { after: edges[0]!.cursor, mapIds: [doomed, kept] });
    expect(places(await resumed.edges(1))).toEqual([[kept, 2]]);
  });

  it('should end a map deleted while the client was away with its MapDeleted, live and paged, and tell no one else', async () => {
    const alice = server.connect(server.alice.token).client;
    const doomed = await createMap(alice, 'Deleted while away');
    const kept = await createMap(alice, 'Kept while away');
    const first = feed(server.alice.token, { mapIds: [doomed, kept] });
    await listening();
    await createNode(alice, doomed, 'seen before leaving');
    const [seen] = await first.edges(1);
    first.stop();
    await call(alice, DELETE_MAP, { id: doomed });
    await createNode(alice, kept, 'made while away');
    for (const transport of ['graphql-ws', 'sse distinct connections'] as const) {
      const resumed = feed(server.alice.token, { after: seen!.cursor, mapIds: [doomed, kept] }, transport);
      const edges = await resumed.edges(2);
      expect(edges.map((edge) => [edge.event.__typename, edge.event.mapId]).sort()).toEqual(
        [
          ['MapDeleted', doomed],
          ['NodeCreated', kept],
        ].sort(),
      );
      // The deleted map leaves the cursor: resuming from the last one brings nothing of it again.
      const last = edges.at(-1)!.cursor;
      resumed.stop();
      const page = await call(alice, VIEWER_EVENTS, { after: last, mapIds: [doomed, kept] });
      expect(page.edges).toEqual([]);
    }
    const paged = await call(alice, VIEWER_EVENTS, { after: seen!.cursor, mapIds: [doomed, kept] });
    expect(paged.edges.map((edge) => [edge.event.__typename, (edge.event as { mapId: string }).mapId])).toEqual([
      ['MapDeleted', doomed],
      ['NodeCreated', kept],
    ]);
    // Another viewer whose cursor names the deleted map learns nothing of it: its feed's first event is its own.
    const carol = await createUserWithToken(server.db, 'Carol');
    const forged = Buffer.from(JSON.stringify({ [doomed]: 0 })).toString('base64url');
    const carols = server.connect(carol.token).client;
    expect((await call(carols, VIEWER_EVENTS, { after: forged })).edges).toEqual([]);
    const carolsFeed = feed(carol.token, { after: forged });
    const carolsMap = await createMap(carols, 'Carol after the deletion');
    expect(places(await carolsFeed.edges(1))).toEqual([[carolsMap, 1]]);
  });

  it('should page through stored events across maps and continue live from the last page', async () => {
    const viewer = await createUserWithToken(server.db, 'Pager');
    const client = server.connect(viewer.token).client;
    const a = await createMap(client, 'Paged A');
    const b = await createMap(client, 'Paged B');
    const rootA = await createNode(client, a, 'a2');
    const rootB = await createNode(client, b, 'b2');
    await createNode(client, a, 'a3', rootA.id);
    const seen: (string | number)[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await call(client, VIEWER_EVENTS, { first: 2, after });
      seen.push(
        ...page.edges.map((edge) => [(edge.event as { mapId: string }).mapId, (edge.event as { seq: number }).seq]),
      );
      after = page.endCursor;
      if (!page.hasMore) break;
    }
    expect(seen).toEqual([
      [a, 1],
      [b, 1],
      [a, 2],
      [b, 2],
      [a, 3],
    ]);
    const live = feed(viewer.token, { after });
    await createNode(client, b, 'b3', rootB.id);
    expect(places(await live.edges(1))).toEqual([[b, 3]]);
  });

  it('should give cursors that do not grow with the number of maps, and release the feed when it ends', async () => {
    const viewer = await createUserWithToken(server.db, 'Many maps');
    const client = server.connect(viewer.token).client;
    const live = feed(viewer.token);
    await listening(1, viewer.user.id);
    const maps: string[] = [];
    for (let i = 0; i < 30; i++) maps.push(await createMap(client, `Map ${i}`));
    const edges = await live.edges(30);
    expect(edges.map((edge) => edge.event.mapId)).toEqual(maps);
    const lengths = new Set(edges.slice(9).map((edge) => edge.cursor.length));
    expect(lengths.size).toBe(1);
    expect(edges.at(-1)!.cursor.length).toBeLessThan(40);
    live.stop();
    await listening(0, viewer.user.id);
  });

  it('should resume from a cursor of the earlier per-map form exactly where it stood', async () => {
    const viewer = await createUserWithToken(server.db, 'Upgraded dashboard');
    const client = server.connect(viewer.token).client;
    const a = await createMap(client, 'Old A'); // a:1
    const b = await createMap(client, 'Old B'); // b:1
    const idle = await createMap(client, 'Old idle'); // idle:1
    const rootA = await createNode(client, a, 'a2');
    const rootB = await createNode(client, b, 'b2');
    // The earlier server's cursor after a:2 and b:1, having seen nothing of the idle map yet.
    const legacy = Buffer.from(JSON.stringify({ [a]: 2, [b]: 1, [idle]: 0 })).toString('base64url');
    await createNode(client, a, 'a3', rootA.id);
    const expected = [
      [idle, 1],
      [b, 2],
      [a, 3],
    ];
    const page = await call(client, VIEWER_EVENTS, { after: legacy });
    expect(
      page.edges.map((edge) => [(edge.event as { mapId: string }).mapId, (edge.event as { seq: number }).seq]),
    ).toEqual(expected);
    const resumed = feed(viewer.token, { after: legacy });
    expect(places(await resumed.edges(3))).toEqual(expected);
    await createNode(client, b, 'b3', rootB.id);
    expect(places(await resumed.edges(4)).at(-1)).toEqual([b, 3]);
  });

  it('should refuse a cursor it did not give and an unknown event type', async () => {
    const alice = server.connect(server.alice.token).client;
    expect(await attempt(alice, VIEWER_EVENTS, { after: 'not a cursor' })).toMatchObject({
      __typename: 'ValidationError',
      field: 'after',
    });
    expect(await attempt(alice, VIEWER_EVENTS, { types: ['NoSuchEvent'] })).toMatchObject({
      __typename: 'ValidationError',
      field: 'types',
    });
    const sub = feed(server.alice.token, { after: 'bm90IGpzb24' });
    await expect(sub.waitFor(1)).rejects.toThrow(/after: is not a cursor of this feed/);
  });
});
