import { EVENTS, POST_MESSAGE, SET_CONCLUSION, UPDATE_NODE } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectOverSse, collectOverWebSocket } from './helpers/event-collector.ts';
import { addDependency, createMap, createNode } from './helpers/map-builder.ts';
import { call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

/** Makes a sequence of changes that produces a known list of event types. */
async function makeChanges(client: ReturnType<TestServer['connect']>['client'], mapId: string) {
  const root = await createNode(client, mapId, '如何提高团队效率?');
  const a = await createNode(client, mapId, 'Measure first', root.id);
  const b = await createNode(client, mapId, 'Then change', root.id);
  await addDependency(client, b.id, a.id);
  await call(client, UPDATE_NODE, { input: { id: a.id, expectedVersion: a.version, goal: '找出瓶颈' } });
  await call(client, POST_MESSAGE, {
    input: { nodeId: a.id, conversation: 'CONCLUDE', content: 'Cycle time is 9 days' },
  });
  await call(client, SET_CONCLUSION, { input: { nodeId: a.id, conclusion: 'Reviews are the bottleneck' } });
  return { root, a, b };
}

const EXPECTED_TYPES = [
  'NodeCreated',
  'NodeCreated',
  'NodeCreated',
  'DependencyAdded',
  'NodeUpdated', // b becomes BLOCKED
  'NodeUpdated', // a's goal
  'MessagePosted',
  'NodeConcluded',
  'NodeUpdated', // b becomes READY
];

describe.each(providers)('live map events on %s', (provider) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterAll(() => server?.close());

  it('should deliver every event in order over graphql-ws and over SSE', async () => {
    const { client } = server.connect(server.alice.token);
    const mapId = await createMap(client);
    const ws = collectOverWebSocket(server.connect(server.alice.token).client, mapId);
    const sse = collectOverSse(server.sse(server.alice.token), mapId);
    // Both subscriptions listen once the server's bus counts them (without `after` they only see what follows).
    await expect.poll(() => server.app.bus.listenerCount(mapId)).toBe(2);
    await makeChanges(client, mapId);
    for (const collector of [ws, sse]) {
      const events = await collector.waitFor(EXPECTED_TYPES.length);
      expect(events.map((e) => e.__typename)).toEqual(EXPECTED_TYPES);
      // seq 1 is the map's MapCreated, committed before the subscriptions started.
      expect(events.map((e) => e.seq)).toEqual(EXPECTED_TYPES.map((_, i) => i + 2));
      collector.stop();
    }
    const stored = await call(client, EVENTS, { mapId, after: 0, first: 100 });
    expect(stored.events.map((e: { __typename: string }) => e.__typename)).toEqual(['MapCreated', ...EXPECTED_TYPES]);
  });

  it('should replay exactly the missed events after a reconnect with `after`, then continue live', async () => {
    const { client } = server.connect(server.alice.token);
    const mapId = await createMap(client);
    const first = collectOverWebSocket(server.connect(server.alice.token).client, mapId);
    await expect.poll(() => server.app.bus.listenerCount(mapId)).toBe(1);
    const root = await createNode(client, mapId, 'root');
    const seen = await first.waitFor(1);
    first.stop();
    // While disconnected, three more changes happen.
    const a = await createNode(client, mapId, 'missed 1', root.id);
    await createNode(client, mapId, 'missed 2', root.id);
    await call(client, UPDATE_NODE, { input: { id: a.id, expectedVersion: a.version, question: 'missed 3' } });
    for (const resumed of [
      collectOverWebSocket(server.connect(server.alice.token).client, mapId, seen.at(-1)!.seq),
      collectOverSse(server.sse(server.alice.token), mapId, seen.at(-1)!.seq),
    ]) {
      const replayed = await resumed.waitFor(3);
      expect(replayed.map((e) => e.seq)).toEqual([3, 4, 5]);
      expect(replayed[2]).toMatchObject({ node: { question: 'missed 3' } });
      resumed.stop();
    }
    // With `after`, nothing committed before the subscription listens can be missed: no need to wait for it.
    const live = collectOverWebSocket(server.connect(server.alice.token).client, mapId, 5);
    await createNode(client, mapId, 'live after replay', root.id);
    expect((await live.waitFor(1)).map((e) => e.seq)).toEqual([6]);
    // A later change arrives next: nothing was delivered twice in between.
    await createNode(client, mapId, 'the next change', root.id);
    expect((await live.waitFor(2)).map((e) => e.seq)).toEqual([6, 7]);
    live.stop();
  });

  it('should not lose or repeat events when changes race with the replay', async () => {
    const { client } = server.connect(server.alice.token);
    const mapId = await createMap(client);
    const root = await createNode(client, mapId, 'root');
    const writes = Promise.all(Array.from({ length: 20 }, (_, i) => createNode(client, mapId, `child ${i}`, root.id)));
    const sub = collectOverWebSocket(server.connect(server.alice.token).client, mapId, 0);
    await writes;
    // One more change after the race: it must come right after the 22 others (MapCreated, the root, 20
    // children), with nothing repeated before it.
    await createNode(client, mapId, 'after the race', root.id);
    const events = await sub.waitFor(23);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    sub.stop();
  });
});
