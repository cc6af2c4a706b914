import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { DIVERGENT_SKILLS, START_DIVERGENT } from '@thinkingmap/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { startWebSearch } from '../../src/runs/start-web-search.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import { divergentModel, readSession, rootOf, waitForSessionStatus } from './divergent-helpers.ts';

/**
 * A real web search MCP server over Streamable HTTP, offering its search tool under its own name and input
 * (`web_search(q, count)`, as search providers' servers do); it records what it was asked. A query with
 * "broken" answers the tool's error.
 */
async function startSearchMcp() {
  const asked: Record<string, unknown>[] = [];
  const mcpServer = () => {
    const server = new McpServer({ name: 'web-search-fixture', version: '1.0.0' });
    server.registerTool(
      'web_search',
      {
        description: 'Searches the web.',
        inputSchema: { q: z.string(), count: z.number().int().optional() },
        annotations: { readOnlyHint: true },
      },
      (args) => {
        asked.push(args);
        if (args.q.includes('broken'))
          return { isError: true, content: [{ type: 'text', text: 'the search index is down' }] };
        const results = [
          { title: 'Café rents 2026', url: 'https://example.org/rents', content: 'Rents near the river rose 4%.' },
          { title: 'Footfall study', url: 'https://example.org/footfall', content: 'Noon footfall peaks north.' },
        ];
        return { content: [{ type: 'text', text: `${results.length} results` }], structuredContent: { results } };
      },
    );
    return server;
  };
  const http: Server = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const webTask = (name: string, query: string) => ({ name, query, skill: 'webSearch', priority: 4 });

/** The operator's TM_WEB_SEARCH_MCP_CONFIG file naming one HTTP server. */
async function configFile(dir: string, name: string, url: string): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify({ timeoutMs: 5_000, connectTimeoutMs: 3_000, mcpServers: { web: { url } } }));
  return path;
}

describe('divergent webSearch through an operator-configured MCP search server', { timeout: 150_000 }, () => {
  let dir: string;
  let search: Awaited<ReturnType<typeof startSearchMcp>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tm-web-mcp-'));
    search = await startSearchMcp();
  });
  afterAll(async () => {
    await search?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A session of the given web tasks on a server whose web search is the MCP config at `path`. */
  async function explore(path: string, tasks: object[]) {
    const web = await startWebSearch({ mcpConfigPath: path });
    expect(web).not.toBeNull();
    const model = await divergentModel({ plans: [tasks, []], scores: [0.95] });
    const server = await startTestServer('sqlite', { model: model.model, app: { webSearch: web!.port } });
    const close = async () => {
      await server.close();
      await model.server.close();
      await web!.close();
    };
    try {
      const { client } = server.connect(server.alice.token);
      const skills = await call(client, DIVERGENT_SKILLS);
      expect(skills.find((s) => s.name === 'webSearch')).toEqual({ name: 'webSearch', available: true, reason: null });
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      return { server, mapId, session: await readSession(client, run.id), close };
    } catch (error) {
      await close();
      throw error;
    }
  }

  it('should search with the server’s own search tool, keep the sources, and fail a task whose search errs', async () => {
    const path = await configFile(dir, 'up', search.url);
    const { server, mapId, session, close } = await explore(path, [
      webTask('rents', 'cafe rents by the river'),
      webTask('outage', 'broken search'),
    ]);
    try {
      expect(session.levels[0]!.tasks.map((t) => [t.name, t.skill, t.status])).toEqual([
        ['rents', 'webSearch', 'DONE'],
        ['outage', 'webSearch', 'FAILED'],
      ]);
      expect(session.levels[0]!.tasks[1]!.reason).toBe(
        'MCP server "web" answered web_search with an error: the search index is down',
      );
      // Asked under the tool's own argument names, the number of results included.
      expect(search.asked).toEqual([
        { q: 'cafe rents by the river', count: 5 },
        { q: 'broken search', count: 5 },
      ]);
      const rents = await server.db.read.node.findFirstOrThrow({ where: { mapId, question: 'rents' } });
      expect(rents.conclusion).toContain('Rents near the river rose 4%.');
      const message = await server.db.read.message.findFirstOrThrow({
        where: { kind: 'RAG', content: rents.conclusion! },
      });
      expect((message.metadata as { sources: unknown }).sources).toEqual([
        { title: 'Café rents 2026', server: 'web', uri: 'https://example.org/rents' },
        { title: 'Footfall study', server: 'web', uri: 'https://example.org/footfall' },
      ]);
    } finally {
      await close();
    }
  });

  it('should fail the task with a readable reason when the search server cannot be reached', async () => {
    // A port nothing listens on: the server is down from the start.
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    const path = await configFile(dir, 'down', `http://127.0.0.1:${port}/mcp`);
    const { session, close } = await explore(path, [webTask('rents', 'cafe rents by the river')]);
    try {
      expect(session.outcome).toBe('ALL_FAILED');
      const [rents] = session.levels[0]!.tasks;
      expect(rents).toMatchObject({ name: 'rents', status: 'FAILED' });
      expect(rents!.reason).toMatch(/^MCP server "web" is unavailable: .*(ECONNREFUSED|fetch failed)/);
    } finally {
      await close();
    }
  });
});
