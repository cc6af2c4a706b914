import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { callTool, connectOverHttp, schemaRefusal, toolFailure, waitForMap } from './mcp-client.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** Posts an MCP initialize request by hand, to see the HTTP status the endpoint answers with. */
function postInitialize(baseUrl: string, authorization?: string) {
  return fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(INITIALIZE),
  });
}

describe('who may use the MCP endpoint', () => {
  let server: TestServer;
  let local: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    local = await startTestServer('sqlite', { requireToken: false });
  });
  afterAll(async () => {
    await server?.close();
    await local?.close();
  });

  it('should refuse a client without a token, or with an invalid one, when tokens are required', async () => {
    const missing = await postInitialize(server.app.url());
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await postInitialize(server.app.url(), 'Bearer tm_not-a-token')).status).toBe(401);
    await expect(connectOverHttp(server.app.url(), null)).rejects.toThrow();
    await expect(connectOverHttp(server.app.url(), 'tm_not-a-token')).rejects.toThrow();
    expect(await server.db.read.map.count()).toBe(0);
  });

  it('should act as the local user without a token in the embedded default, and refuse a bad token still', async () => {
    const client = await connectOverHttp(local.app.url(), null);
    const created = await callTool(client, 'create_map', { title: 'Local map', understand: false });
    const row = await local.db.read.map.findUniqueOrThrow({ where: { id: created.map.id } });
    expect(row.ownerId).toBe(local.app.localUser!.id);
    await client.close();
    expect((await postInitialize(local.app.url(), 'Bearer tm_not-a-token')).status).toBe(401);
  });

  it("should not let one person read or change another person's map", async () => {
    const alice = await connectOverHttp(server.app.url(), server.alice.token);
    const bob = await connectOverHttp(server.app.url(), server.bob.token);
    const { map } = await callTool(alice, 'create_map', { problem: 'Should I learn the cello?' });
    expect(await toolFailure(bob, 'get_map', { mapId: map.id })).toMatchObject({ code: 'FORBIDDEN' });
    await expect(bob.readResource({ uri: `thinkingmap://maps/${map.id}` })).rejects.toThrow(/FORBIDDEN/);
    expect((await bob.listResources()).resources).toEqual([]);
    expect((await callTool(bob, 'list_maps')).maps).toEqual([]);
    await Promise.all([alice.close(), bob.close()]);
  });
});

describe('bad input over MCP', () => {
  let server: TestServer;
  let alice: Client;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    alice = await connectOverHttp(server.app.url(), server.alice.token);
  });
  afterAll(async () => {
    await alice?.close();
    await server?.close();
  });

  /** Everything a tool could have changed, to compare before and after a refused call. */
  const state = async () => {
    const p = server.db.read;
    const [maps, nodes, contextItems, runs, questions, events] = await Promise.all([
      p.map.findMany({ orderBy: { id: 'asc' } }),
      p.node.findMany({ orderBy: { id: 'asc' } }),
      p.contextItem.count(),
      p.agentRun.findMany({ orderBy: { id: 'asc' }, select: { id: true, status: true } }),
      p.agentQuestion.findMany({ orderBy: { id: 'asc' }, select: { id: true, status: true } }),
      p.event.count(),
    ]);
    return { maps, nodes, contextItems, runs, questions, events };
  };

  it('should answer invalid arguments with a tool error carrying the domain code, and change nothing', async () => {
    // A map with a root node, its understanding run finished.
    const created = await callTool(alice, 'create_map', { problem: 'Should we move the office to Berlin?' });
    await callTool(alice, 'reply_to_agent', { requestId: created.pendingQuestions[0].requestId, accept: true });
    const map = await waitForMap(alice, created.map.id, (m) => m.nodes.length === 1 && m, 'the root');
    const root = map.nodes[0]!;
    const before = await state();

    expect(await toolFailure(alice, 'create_map', { problem: '   ' })).toMatchObject({
      code: 'VALIDATION',
      field: 'title',
    });
    expect(await toolFailure(alice, 'get_map', { mapId: 'not-an-id' })).toMatchObject({
      code: 'VALIDATION',
      field: 'mapId',
    });
    expect(await toolFailure(alice, 'get_map', { mapId: 'c000000000000000000000000' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await toolFailure(alice, 'process_node', { nodeId: 'c000000000000000000000000' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await toolFailure(alice, 'add_context', { nodeId: root.id, content: '' })).toMatchObject({
      code: 'VALIDATION',
      field: 'content',
    });
    expect(await toolFailure(alice, 'conclude_node', { nodeId: root.id, conclusion: ' ' })).toMatchObject({
      code: 'VALIDATION',
      field: 'conclusion',
    });
    // Values outside an advertised enum are refused by the SDK's schema check before any tool runs.
    expect(await schemaRefusal(alice, 'create_map', { problem: 'x', language: 'fr' })).toMatch(
      /Input validation error.*"zh"\|"en".* at language/s,
    );
    expect(await schemaRefusal(alice, 'process_node', { nodeId: root.id, intent: 'DANCE' })).toMatch(/at intent/);
    expect(await schemaRefusal(alice, 'conclude_node', { nodeId: root.id, conclusion: 'Yes', kind: 'GUESS' })).toMatch(
      /at kind/,
    );
    const stale = await toolFailure(alice, 'reply_to_agent', {
      requestId: created.pendingQuestions[0].requestId,
      accept: true,
    });
    expect(stale).toMatchObject({ code: 'VALIDATION', field: 'requestId' });
    expect(stale.text).toMatch(/^\[VALIDATION\] requestId: this question is no longer waiting/);
    expect(await state()).toEqual(before);
  });

  it('should refuse a second run on a busy node with CONFLICT', async () => {
    const created = await callTool(alice, 'create_map', { problem: 'Which bike should I buy?' });
    await callTool(alice, 'reply_to_agent', { requestId: created.pendingQuestions[0].requestId, accept: true });
    const map = await waitForMap(alice, created.map.id, (m) => m.nodes.length === 1 && m, 'the root');
    const first = await callTool(alice, 'process_node', { nodeId: map.nodes[0]!.id, intent: 'CLARIFY' });
    expect(first.run.status).toBe('WAITING');
    const before = await state();
    expect(await toolFailure(alice, 'process_node', { nodeId: map.nodes[0]!.id })).toMatchObject({ code: 'CONFLICT' });
    expect(await state()).toEqual(before);
  });
});
