import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/test-server.ts';
import { callTool, connectOverHttp } from '../mcp/mcp-client.ts';
import { divergentModel, readSession, rootOf, task, waitForSessionStatus } from './divergent-helpers.ts';

describe('divergent exploration over MCP', { timeout: 150_000 }, () => {
  it('should start a session with start_divergent, take the review through reply_to_agent, and show the levels in get_map', async () => {
    const model = await divergentModel({ plans: [[task('market')], []], scores: [0.95] });
    const server = await startTestServer('sqlite', { model: model.model });
    const alice = await connectOverHttp(server.app.url(), server.alice.token);
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const started = await callTool(alice, 'start_divergent', {
        nodeId: rootId,
        reviewEachLevel: true,
        waitSeconds: 45,
      });
      expect(started.run).toMatchObject({ agent: 'divergent', status: 'WAITING' });
      const review = started.pendingQuestions.find((q: { kind: string }) => q.kind === 'review-divergent-tasks');
      expect(review.context.tasks).toMatchObject([{ name: 'market', skill: 'commonQnA' }]);
      await callTool(alice, 'reply_to_agent', { requestId: review.requestId, accept: true, waitSeconds: 0 });
      await waitForSessionStatus(client, started.run.id, 'COMPLETED');
      expect((await readSession(client, started.run.id)).outcome).toBe('FINISHED');

      const result = (await alice.callTool({ name: 'get_map', arguments: { mapId } })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      expect(text).toContain('Divergent summary · level 1 · completion 0.95');
      expect(text).toContain('Divergent task · level 1');
      expect(text).toContain('Divergent final output · level 1');
      // The JSON (structured content) carries the same levels: each node's role, level and score.
      const nodes = (result.structuredContent as { nodes: Record<string, unknown>[] }).nodes;
      const levels = nodes
        .filter((n) => n.divergentRole)
        .map((n) => [n.divergentRole, n.divergentLevel, n.completionScore]);
      expect(levels).toEqual([
        ['SUMMARY', 0, null],
        ['TASK', 1, null],
        ['SUMMARY', 1, 0.95],
        ['FINAL', 1, null],
      ]);
    } finally {
      await alice.close();
      await server.close();
      await model.server.close();
    }
  });
});
