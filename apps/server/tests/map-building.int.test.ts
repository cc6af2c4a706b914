import { detectLanguage } from '@thinkingmap/agent-core';
import {
  ADD_CONTEXT_ITEM,
  CLEAR_CONVERSATION,
  CREATE_MAP,
  DELETE_NODE,
  EXECUTION_ORDER,
  MAP,
  MESSAGE_THREAD,
  MOVE_NODE,
  NODE,
  POST_MESSAGE,
  READINESS,
  REMOVE_DEPENDENCY,
  SET_CONCLUSION,
  UPDATE_MAP,
  UPDATE_NODE,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDependency, buildThreeLevelMap, createMap, createNode } from './helpers/map-builder.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

describe.each(providers)('building a thinking map on %s', (provider) => {
  let server: TestServer;
  let client: ReturnType<TestServer['connect']>['client'];

  beforeAll(async () => {
    server = await startTestServer(provider);
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server?.close());

  it("should give a new map the language the agents' own detector reads in its text, mixed text included", async () => {
    const problems = [
      '我们 Should we migrate our backend from Python to Go',
      '我们的 SaaS 产品要不要接入 OpenAI API？',
      'Plan the launch of our tea brand called 龍 in Europe',
    ];
    const languages = [];
    for (const problem of problems) {
      const map = await call(client, CREATE_MAP, { input: { problem, understand: false } });
      expect(map.language).toBe(detectLanguage(problem));
      languages.push(map.language);
    }
    expect(languages).toEqual(['en', 'zh', 'en']);
  });

  it('should build a 3-level map and return it with nested children in one query', async () => {
    const mapId = await createMap(client);
    const ids = await buildThreeLevelMap(client, mapId);
    const map = await call(client, MAP, { id: mapId });
    expect(map.nodes).toHaveLength(10);
    const root = await call(client, NODE, { id: ids.root });
    expect(root.children.map((c: { id: string }) => c.id)).toEqual([ids.a, ids.b, ids.c]);
    expect(root.type).toBe('ROOT');
    const a = await call(client, NODE, { id: ids.a });
    expect(a.parent?.id).toBe(ids.root);
    expect(a.children.map((c: { id: string }) => c.id)).toEqual([ids.a1, ids.a2]);
    expect(a.conversations.map((c: { kind: string }) => c.kind).sort()).toEqual(['CONCLUDE', 'DECOMPOSE']);
  });

  it('should block a node on open dependencies, name them, and release it when they conclude', async () => {
    const mapId = await createMap(client, '选择数据库');
    const ids = await buildThreeLevelMap(client, mapId);
    await addDependency(client, ids.c, ids.a);
    await addDependency(client, ids.c, ids.b);
    let readiness = await call(client, READINESS, { nodeId: ids.c });
    expect(readiness.ready).toBe(false);
    expect(readiness.openDependencies.map((n: { id: string }) => n.id).sort()).toEqual([ids.a, ids.b].sort());
    expect(readiness.blockedReason).toContain('Question a');
    expect((await call(client, NODE, { id: ids.c })).status).toBe('BLOCKED');

    const order = await call(client, EXECUTION_ORDER, { mapId });
    expect(order.nodeIds.indexOf(ids.c)).toBeGreaterThan(order.nodeIds.indexOf(ids.a));
    expect(order.nodeIds.indexOf(ids.c)).toBeGreaterThan(order.nodeIds.indexOf(ids.b));

    await call(client, SET_CONCLUSION, { input: { nodeId: ids.a, conclusion: 'A is settled', kind: 'DECISION' } });
    readiness = await call(client, READINESS, { nodeId: ids.c });
    expect(readiness.openDependencies.map((n: { id: string }) => n.id)).toEqual([ids.b]);
    await call(client, REMOVE_DEPENDENCY, { nodeId: ids.c, dependsOnId: ids.b });
    readiness = await call(client, READINESS, { nodeId: ids.c });
    expect(readiness).toMatchObject({ ready: true, blockedReason: null, openDependencies: [] });
    expect((await call(client, NODE, { id: ids.c })).status).toBe('READY');
  });

  it('should refuse a dependency that closes a cycle and name the whole path', async () => {
    const mapId = await createMap(client);
    const root = await createNode(client, mapId, 'root');
    const [x, y, z] = [
      await createNode(client, mapId, 'X', root.id),
      await createNode(client, mapId, 'Y', root.id),
      await createNode(client, mapId, 'Z', root.id),
    ];
    await addDependency(client, x.id, y.id);
    await addDependency(client, y.id, z.id);
    const refused = await addDependency(client, z.id, x.id);
    expect(refused).toMatchObject({
      __typename: 'CycleError',
      code: 'CYCLE',
      path: [z.id, x.id, y.id, z.id],
      questions: ['Z', 'X', 'Y', 'Z'],
    });
  });

  it('should refuse a stale edit with the current version and keep the newer text', async () => {
    const mapId = await createMap(client);
    const node = await createNode(client, mapId, 'Original question');
    const first = await call(client, UPDATE_NODE, {
      input: { id: node.id, expectedVersion: node.version, question: 'Edited in window 1' },
    });
    expect(first).toMatchObject({ __typename: 'Node', version: node.version + 1 });
    const stale = await attempt(client, UPDATE_NODE, {
      input: { id: node.id, expectedVersion: node.version, question: 'Edited in window 2' },
    });
    expect(stale).toMatchObject({
      __typename: 'VersionConflictError',
      code: 'VERSION_CONFLICT',
      currentVersion: node.version + 1,
      expectedVersion: node.version,
    });
    expect((await call(client, NODE, { id: node.id })).question).toBe('Edited in window 1');
    const map = await call(client, MAP, { id: mapId });
    const staleMap = await attempt(client, UPDATE_MAP, {
      input: { id: mapId, expectedVersion: map.version + 5, title: 'x' },
    });
    expect(staleMap.__typename).toBe('VersionConflictError');
  });

  it('should move a subtree under another parent and delete a subtree with its dependencies', async () => {
    const mapId = await createMap(client);
    const ids = await buildThreeLevelMap(client, mapId);
    await addDependency(client, ids.b, ids.a);
    const moved = await call(client, MOVE_NODE, { input: { id: ids.c, parentId: ids.b, position: 0 } });
    expect(moved).toMatchObject({ __typename: 'Node', parentId: ids.b, position: 0 });
    const b = await call(client, NODE, { id: ids.b });
    expect(b.children.map((c: { id: string }) => c.id)).toEqual([ids.c, ids.b1, ids.b2]);
    const c = await call(client, NODE, { id: ids.c });
    expect(c.children.map((n: { id: string }) => n.id)).toEqual([ids.c1, ids.c2]);

    const deleted = await call(client, DELETE_NODE, { id: ids.a });
    expect(deleted.nodeIds.sort()).toEqual([ids.a, ids.a1, ids.a2].sort());
    expect(deleted.dependencyIds).toHaveLength(1);
    const map = await call(client, MAP, { id: mapId });
    expect(map.nodes).toHaveLength(7);
    expect(map.dependencies).toHaveLength(0);
    expect((await call(client, NODE, { id: ids.b })).status).toBe('READY');
  });

  it('should walk a message thread back to its start', async () => {
    const mapId = await createMap(client);
    const node = await createNode(client, mapId, '怎么学习机器学习?');
    const post = (content: string, parentId?: string) =>
      call(client, POST_MESSAGE, { input: { nodeId: node.id, conversation: 'DECOMPOSE', content, parentId } });
    const m1 = await post('先学什么?');
    const m2 = await post('Linear algebra first');
    const m3 = await post('然后是概率论');
    const side = await post('A side question', m1.id);
    expect(m2.parentId).toBe(m1.id);
    const thread = await call(client, MESSAGE_THREAD, { messageId: m3.id });
    expect(thread.messages.map((m: { id: string }) => m.id)).toEqual([m1.id, m2.id, m3.id]);
    const sideThread = await call(client, MESSAGE_THREAD, { messageId: side.id });
    expect(sideThread.messages.map((m: { id: string }) => m.id)).toEqual([m1.id, side.id]);

    await call(client, ADD_CONTEXT_ITEM, { nodeId: node.id, content: '我每周有 5 小时', title: '时间' });
    const cleared = await call(client, CLEAR_CONVERSATION, { nodeId: node.id, conversation: 'DECOMPOSE' });
    expect(cleared.clearedCount).toBe(4);
    const after = await call(client, NODE, { id: node.id });
    expect(after.conversations.find((c) => c.kind === 'DECOMPOSE')!.messages).toHaveLength(0);
    expect(after.contextItems).toHaveLength(1);
    // Cleared messages are kept: the thread can still be walked.
    const kept = await call(client, MESSAGE_THREAD, { messageId: m3.id });
    expect(kept.messages).toHaveLength(3);
  });

  it('should complete the map when its root concludes', async () => {
    const mapId = await createMap(client);
    const root = await createNode(client, mapId, 'root');
    await call(client, SET_CONCLUSION, { input: { nodeId: root.id, conclusion: 'Done.' } });
    expect((await call(client, MAP, { id: mapId })).status).toBe('COMPLETED');
  });
});
