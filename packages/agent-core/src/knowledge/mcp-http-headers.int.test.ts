import { afterEach, describe, expect, it } from 'vitest';
import { type HttpKnowledgeServer, startHttpKnowledgeServer } from '../testing/http-knowledge-server.ts';
import { createMcpKnowledge, type McpKnowledge } from './create-mcp-knowledge.ts';
import { parseMcpConfig } from './load-mcp-config.ts';
import type { McpServersConfigInput } from './mcp-servers-config.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function guardedServer(): Promise<HttpKnowledgeServer> {
  const server = await startHttpKnowledgeServer({
    name: 'wiki',
    requiredHeaders: { authorization: 'Bearer s3cret', 'x-tenant': 'cafe' },
  });
  cleanups.push(() => server.close());
  return server;
}

async function startKnowledge(input: McpServersConfigInput): Promise<McpKnowledge> {
  const config = parseMcpConfig({ timeoutMs: 5_000, reconnect: { initialDelayMs: 0, maxDelayMs: 0 }, ...input });
  const knowledge = await createMcpKnowledge(config);
  cleanups.push(() => knowledge.close());
  return knowledge;
}

describe('MCP knowledge over Streamable HTTP: configured headers', () => {
  it('should send the configured headers with every request, from the handshake to the tool call', async () => {
    const server = await guardedServer();
    const knowledge = await startKnowledge({
      mcpServers: { wiki: { url: server.url, headers: { Authorization: 'Bearer s3cret', 'X-Tenant': 'cafe' } } },
    });
    expect(knowledge.status).toEqual([
      { name: 'wiki', state: 'ready', tools: ['knowledge_search', 'domain_knowledge'] },
    ]);

    const answer = await knowledge.port.searchWithNotices('roadmaps');
    expect(answer.notices).toEqual([]);
    expect(answer.results).toMatchObject([
      { content: 'wiki on roadmaps', sources: [{ server: 'wiki', path: 'wiki/notes.md', startLine: 3, endLine: 6 }] },
    ]);
    const methods = server.requests.map((r) => r.method);
    expect(methods).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call']));
    for (const request of server.requests)
      expect(request.headers).toMatchObject({ authorization: 'Bearer s3cret', 'x-tenant': 'cafe' });
  });

  it('should treat a server that refuses the missing or wrong header as down and answer from the others', async () => {
    const server = await guardedServer();
    const knowledge = await startKnowledge({
      mcpServers: {
        good: { url: server.url, headers: { Authorization: 'Bearer s3cret', 'X-Tenant': 'cafe' } },
        wrong: { url: server.url, headers: { Authorization: 'Bearer guessed', 'X-Tenant': 'cafe' } },
        bare: { url: server.url },
      },
    });
    expect(knowledge.status.map((s) => [s.name, s.state])).toEqual([
      ['good', 'ready'],
      ['wrong', 'down'],
      ['bare', 'down'],
    ]);
    const refused = server.requests.filter((r) => r.headers.authorization !== 'Bearer s3cret');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.map((r) => r.headers.authorization)).toEqual(expect.arrayContaining(['Bearer guessed', undefined]));

    const answer = await knowledge.port.searchWithNotices('roadmaps');
    expect(answer.results.map((r) => r.sources[0]!)).toMatchObject([{ server: 'good' }]);
    expect(answer.notices.map((n) => [n.server, n.kind])).toEqual([
      ['wrong', 'unreachable'],
      ['bare', 'unreachable'],
    ]);
  });
});
