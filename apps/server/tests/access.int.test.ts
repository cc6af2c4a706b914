import {
  ADD_CONTEXT_ITEM,
  ADD_DEPENDENCY,
  CLEAR_CONVERSATION,
  CREATE_NODE,
  DELETE_MAP,
  DELETE_NODE,
  EVENTS,
  EXECUTION_ORDER,
  MAP,
  MAPS,
  MESSAGE_THREAD,
  MOVE_NODE,
  NODE,
  POST_MESSAGE,
  READINESS,
  REMOVE_CONTEXT_ITEM,
  REMOVE_DEPENDENCY,
  SET_CONCLUSION,
  UPDATE_MAP,
  UPDATE_NODE,
  VIEWER,
} from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from './helpers/db-snapshot.ts';
import { collectOverSse, collectOverWebSocket } from './helpers/event-collector.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { attempt, call, raw, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = await testProviders();

describe.each(providers)('identity and access on %s', (provider) => {
  let server: TestServer;
  let alice: ReturnType<TestServer['connect']>['client'];
  let bob: ReturnType<TestServer['connect']>['client'];
  let mapId: string;
  let ids: { root: string; child: string; sibling: string; message: string; item: string };

  beforeAll(async () => {
    server = await startTestServer(provider);
    alice = server.connect(server.alice.token).client;
    bob = server.connect(server.bob.token).client;
    mapId = await createMap(alice, "Alice's private plan");
    const root = await createNode(alice, mapId, 'root');
    const child = await createNode(alice, mapId, 'child', root.id);
    const message = await call(alice, POST_MESSAGE, {
      input: { nodeId: child.id, conversation: 'DECOMPOSE', content: 'secret' },
    });
    const sibling = await createNode(alice, mapId, 'sibling', root.id);
    await call(alice, ADD_DEPENDENCY, { nodeId: child.id, dependsOnId: sibling.id });
    const item = await call(alice, ADD_CONTEXT_ITEM, { nodeId: child.id, content: 'private note' });
    ids = { root: root.id, child: child.id, sibling: sibling.id, message: message.id, item: item.id };
  });
  afterAll(() => server?.close());

  it('should tell each token who it acts as', async () => {
    expect((await call(alice, VIEWER)).id).toBe(server.alice.id);
    expect((await call(bob, VIEWER)).id).toBe(server.bob.id);
    expect(await call(bob, MAPS)).toEqual([]);
  });

  it("should refuse another user's queries with a typed Forbidden error", async () => {
    const results = [
      await attempt(bob, MAP, { id: mapId }),
      await attempt(bob, NODE, { id: ids.child }),
      await attempt(bob, READINESS, { nodeId: ids.child }),
      await attempt(bob, EXECUTION_ORDER, { mapId }),
      await attempt(bob, MESSAGE_THREAD, { messageId: ids.message }),
      await attempt(bob, EVENTS, { mapId }),
    ];
    for (const result of results) expect(result).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });
  });

  it("should refuse another user's mutations and change nothing", async () => {
    const before = await snapshot(server.db);
    const attempts = [
      attempt(bob, UPDATE_MAP, { input: { id: mapId, title: 'hijacked' } }),
      attempt(bob, DELETE_MAP, { id: mapId }),
      attempt(bob, CREATE_NODE, { input: { mapId, parentId: ids.root, question: 'intruder' } }),
      attempt(bob, UPDATE_NODE, { input: { id: ids.child, expectedVersion: 1, question: 'x' } }),
      attempt(bob, DELETE_NODE, { id: ids.child }),
      attempt(bob, MOVE_NODE, { input: { id: ids.child, parentId: ids.root } }),
      attempt(bob, ADD_DEPENDENCY, { nodeId: ids.child, dependsOnId: ids.root }),
      attempt(bob, ADD_CONTEXT_ITEM, { nodeId: ids.child, content: 'x' }),
      attempt(bob, POST_MESSAGE, { input: { nodeId: ids.child, conversation: 'CONCLUDE', content: 'x' } }),
      attempt(bob, SET_CONCLUSION, { input: { nodeId: ids.child, conclusion: 'x' } }),
      attempt(bob, REMOVE_DEPENDENCY, { nodeId: ids.child, dependsOnId: ids.sibling }),
      attempt(bob, REMOVE_CONTEXT_ITEM, { id: ids.item }),
      attempt(bob, CLEAR_CONVERSATION, { nodeId: ids.child, conversation: 'DECOMPOSE' }),
    ];
    for (const result of await Promise.all(attempts)) expect(result).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await snapshot(server.db)).toBe(before);
  });

  it("should refuse another user's subscriptions over graphql-ws and SSE", async () => {
    for (const sub of [collectOverWebSocket(bob, mapId, 0), collectOverSse(server.sse(server.bob.token), mapId, 0)]) {
      await expect(sub.waitFor(1, 3_000)).rejects.toThrow(/FORBIDDEN|do not have access/);
      expect(sub.events).toEqual([]);
      sub.stop();
    }
  });

  it('should refuse a request without a token, or with an invalid one, when tokens are required', async () => {
    for (const token of [null, 'tm_not-a-real-token']) {
      const anonymous = server.connect(token).client;
      const result = await raw(anonymous, VIEWER);
      expect(result.error?.message).toMatch(/token/);
      expect((result.data as { viewer?: unknown } | undefined)?.viewer ?? null).toBeNull();
      const response = await fetch(server.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      });
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});

describe('the embedded default identity', () => {
  it('should act as the local user when a request carries no token', async () => {
    const server = await startTestServer('sqlite', { requireToken: false });
    try {
      const viewer = await call(server.connect(null).client, VIEWER);
      expect(viewer).toMatchObject({ isLocal: true, name: 'Local user' });
      const withToken = await call(server.connect(server.bob.token).client, VIEWER);
      expect(withToken.id).toBe(server.bob.id);
    } finally {
      await server.close();
    }
  });
});
