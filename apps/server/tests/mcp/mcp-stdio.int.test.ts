import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, type TestDatabase } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../../src/auth/tokens.ts';
import type { NodeSummary, QuestionSummary } from '../../src/mcp/map-snapshot.ts';
import { callTool, connectOverStdio, waitForMap } from './mcp-client.ts';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/** The parent's environment without anything that would choose a model, a database or an identity. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const skip = /^(OPENAI_|MODEL$|DATABASE_URL$|REDIS_URL$|TM_)/;
  const base = Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !skip.test(e[0]));
  return { ...Object.fromEntries(base), TM_MCP_CONFIG: 'none', ...extra };
}

describe('ThinkingMap as an MCP server over stdio (child process, offline model)', () => {
  let testDb: TestDatabase;
  let db: Database;
  let carol: { user: { id: string }; token: string };
  let client: Client;

  beforeAll(async () => {
    testDb = await createTestDatabase('sqlite');
    db = await testDb.open();
    carol = await createUserWithToken(db, 'Carol');
    client = await connectOverStdio(childEnv({ DATABASE_URL: testDb.url, TM_TOKEN: carol.token }), serverDir);
  });
  afterAll(async () => {
    await client?.close();
    await db?.close();
    await testDb?.drop();
  });

  it('should drive a map from problem to conclusion as the user of TM_TOKEN', async () => {
    const created = await callTool(client, 'create_map', { problem: 'Should our team adopt a four-day week?' });
    const mapId = created.map.id as string;
    expect((await db.read.map.findUniqueOrThrow({ where: { id: mapId } })).ownerId).toBe(carol.user.id);
    const confirm = created.pendingQuestions.find((q: QuestionSummary) => q.kind === 'confirm-understanding');
    await callTool(client, 'reply_to_agent', { requestId: confirm.requestId, accept: true });
    const rootId = (await waitForMap(client, mapId, (m) => m.nodes[0]?.id, 'the root')) as string;

    const decomposing = await callTool(client, 'process_node', { nodeId: rootId, intent: 'DECOMPOSE' });
    const review = decomposing.pendingQuestions.find((q: QuestionSummary) => q.kind === 'review-decomposition');
    await callTool(client, 'reply_to_agent', { requestId: review.requestId, accept: true });
    const map = await waitForMap(client, mapId, (m) => m.nodes.length > 1 && m, 'the sub-questions');
    const children = map.nodes.filter((n: NodeSummary) => n.parentId === rootId);
    expect(children.length).toBeGreaterThan(1);

    // Conclude the children by hand, in an order their dependencies allow; the root then concludes bottom-up.
    const open = new Set<string>(children.map((c: NodeSummary) => c.id));
    while (open.size) {
      const current = await callTool(client, 'get_map', { mapId });
      const ready = current.nodes.find((n: NodeSummary) => open.has(n.id) && n.status !== 'BLOCKED');
      expect(ready, 'a child that is not blocked').toBeTruthy();
      await callTool(client, 'conclude_node', { nodeId: ready.id, conclusion: `Answer to: ${ready.question}` });
      open.delete(ready.id);
    }
    const rootReview = await waitForMap(
      client,
      mapId,
      (m) => m.pendingQuestions.find((q: QuestionSummary) => q.kind === 'review-conclusion' && q.nodeId === rootId),
      "the root's conclusion",
    );
    await callTool(client, 'reply_to_agent', { requestId: rootReview.requestId, accept: true });
    const done = await waitForMap(client, mapId, (m) => m.status === 'COMPLETED' && m, 'the map to complete');
    expect(done.nodes.every((n: NodeSummary) => n.status === 'COMPLETED' && n.conclusion)).toBe(true);

    const resource = await client.readResource({ uri: `thinkingmap://maps/${mapId}` });
    expect((resource.contents[0] as { text: string }).text).toContain('Should our team adopt a four-day week?');
    // The child wrote through the command layer: every change is in the event log, in sequence.
    const events = await db.read.event.findMany({ where: { mapId }, orderBy: { seq: 'asc' }, select: { seq: true } });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('should refuse to start with a token that is not valid', async () => {
    await expect(
      connectOverStdio(childEnv({ DATABASE_URL: testDb.url, TM_TOKEN: 'tm_not-a-token' }), serverDir),
    ).rejects.toThrow(/TM_TOKEN is not a valid token/);
  });
});
