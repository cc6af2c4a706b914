import { describe, expect, it } from 'vitest';
import { isAgentError } from '../errors/agent-error.ts';
import type { McpClientManager } from './mcp-client-manager.ts';
import { chooseSearchCall, McpKnowledgePort } from './mcp-knowledge-port.ts';
import type { ToolCallOutcome } from './tool-call-outcome.ts';

const tool = (name: string, description?: string) => ({ name, description, inputSchema: { type: 'object' as const } });

/** A manager stub with the given tools, answering every call with `outcome`. */
function stubManager(outcome: (server: string, tool: string) => ToolCallOutcome) {
  const calls: unknown[] = [];
  const manager = {
    tools: () => [
      { server: 'knowledge', tool: tool('knowledge_search') },
      { server: 'knowledge', tool: tool('domain_knowledge') },
      { server: 'web', tool: tool('fetch_page', 'Fetches a web page') },
    ],
    callTool: async (server: string, name: string, args: Record<string, unknown>) => {
      calls.push([server, name, args]);
      return outcome(server, name);
    },
  };
  return { manager: manager as unknown as McpClientManager, calls };
}

describe('McpKnowledgePort tools', () => {
  it('should list domain_knowledge once and every other tool but knowledge_search named by server', async () => {
    const { manager } = stubManager(() => {
      throw new Error('not called');
    });
    expect((await new McpKnowledgePort(manager).listTools()).map((t) => t.id)).toEqual([
      'domain_knowledge',
      'web/fetch_page',
    ]);
  });

  it('should answer the domain_knowledge tool from every server offering it, with the passages as sources', async () => {
    const passage = { path: 'planning.md', title: 'Planning', startLine: 3, endLine: 5, snippet: 'Rank by impact.' };
    const manager = {
      callEverywhere: async (name: string, args: Record<string, unknown>) => ({
        answers: [
          {
            ok: true,
            server: 'knowledge',
            tool: name,
            result: { content: [], structuredContent: { domain: args.domain, passages: [passage] } },
          },
        ],
        notices: [],
      }),
    } as unknown as McpClientManager;
    const answer = await new McpKnowledgePort(manager).callTool('domain_knowledge', { domain: 'planning' });
    expect(answer.content).toContain('Rank by impact.');
    expect(answer.sources).toMatchObject([{ server: 'knowledge', path: 'planning.md', startLine: 3, endLine: 5 }]);
  });

  it('should call the tool on its server and answer its text with the tool as source', async () => {
    const { manager, calls } = stubManager((server, name) => ({
      ok: true,
      server,
      tool: name,
      result: { content: [{ type: 'text', text: 'Footfall: 2,000 a day.' }] },
    }));
    const answer = await new McpKnowledgePort(manager).callTool('web/fetch_page', { url: 'https://x.example' });
    expect(calls).toEqual([['web', 'fetch_page', { url: 'https://x.example' }]]);
    expect(answer).toEqual({
      content: 'Footfall: 2,000 a day.',
      sources: [{ title: 'web/fetch_page', server: 'web' }],
    });
  });

  it('should throw KNOWLEDGE_UNAVAILABLE with the notice when the tool gave nothing, and tell onNotice', async () => {
    const notice = { server: 'web', tool: 'fetch_page', kind: 'timeout' as const, message: 'web timed out' };
    const { manager } = stubManager((server, name) => ({ ok: false, server, tool: name, notice }));
    const told: unknown[] = [];
    const port = new McpKnowledgePort(manager, { onNotice: (n) => told.push(n) });
    const error = await port.callTool('web/fetch_page', {}).catch((e: unknown) => e);
    expect(isAgentError(error, 'KNOWLEDGE_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toBe('web timed out');
    expect(told).toEqual([notice]);
  });
});

describe('chooseSearchCall (a web search provider’s servers, each with its own search tool)', () => {
  const schema = (...keys: string[]) => ({
    type: 'object' as const,
    properties: Object.fromEntries(keys.map((k) => [k, { type: 'string' }])),
  });
  it('should prefer knowledge_search, then a web search tool, with the query and count under the tool’s own names', () => {
    const knowledge = { name: 'knowledge_search', inputSchema: schema('query') };
    const web = { name: 'brave_web_search', inputSchema: schema('q', 'count') };
    const local = { name: 'local_search', inputSchema: schema('query', 'limit') };
    const other = { name: 'fetch_page', inputSchema: schema('url') };
    expect(chooseSearchCall([other, web, knowledge], 'rent', 3, 'café')).toEqual({
      tool: 'knowledge_search',
      args: { query: 'rent', max_results: 3, context: 'café' },
    });
    expect(chooseSearchCall([local, other, web], 'rent', 3)).toEqual({
      tool: 'brave_web_search',
      args: { q: 'rent', count: 3 },
    });
    expect(chooseSearchCall([other, local], 'rent', 3)).toEqual({
      tool: 'local_search',
      args: { query: 'rent', limit: 3 },
    });
    expect(chooseSearchCall([other], 'rent', 3)).toBeNull();
  });
});
