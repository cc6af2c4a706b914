import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAgentError } from '../errors/agent-error.ts';
import { createMcpKnowledge, type McpKnowledge } from './create-mcp-knowledge.ts';
import type { KnowledgeNotice } from './knowledge-notice.ts';
import { parseMcpConfig } from './load-mcp-config.ts';
import type { McpServersConfigInput } from './mcp-servers-config.ts';
import {
  FIXTURE_SCRIPT,
  type FixtureBehaviour,
  fixtureEnv,
  freePort,
  type HttpFixture,
  startHttpFixture,
} from './testing/fixture-servers.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const stdio = (behaviour: FixtureBehaviour, extra: object = {}) => ({
  command: process.execPath,
  args: [FIXTURE_SCRIPT, '--stdio'],
  env: fixtureEnv(behaviour),
  ...extra,
});

async function startKnowledge(input: McpServersConfigInput, notices: KnowledgeNotice[] = []): Promise<McpKnowledge> {
  const config = parseMcpConfig({ timeoutMs: 5_000, reconnect: { initialDelayMs: 0, maxDelayMs: 0 }, ...input });
  const knowledge = await createMcpKnowledge(config, { onNotice: (notice) => notices.push(notice) });
  cleanups.push(() => knowledge.close());
  return knowledge;
}

async function httpFixture(behaviour: FixtureBehaviour, port?: number): Promise<HttpFixture> {
  const fixture = await startHttpFixture(port ?? (await freePort()), behaviour);
  cleanups.push(() => fixture.stop());
  return fixture;
}

const servers = (results: { sources: { server: string }[] }[]) => [
  ...new Set(results.map((r) => r.sources[0]!.server)),
];

// Each test starts stdio servers (child processes compiled by tsx): longer than vitest's 5 s on a loaded machine.
describe('MCP knowledge through the client manager', { timeout: 30_000 }, () => {
  it('should discover the tools of a stdio and an HTTP server at start and merge their results with sources', async () => {
    const http = await httpFixture({ name: 'wiki' });
    const knowledge = await startKnowledge({
      mcpServers: { local: stdio({ name: 'local' }), wiki: { url: http.url } },
    });
    expect(knowledge.status).toEqual([
      { name: 'local', state: 'ready', tools: ['knowledge_search', 'domain_knowledge'] },
      { name: 'wiki', state: 'ready', tools: ['knowledge_search', 'domain_knowledge'] },
    ]);
    const results = await knowledge.port.search('roadmaps', { maxResults: 3 });
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      content: 'local says about roadmaps (1)',
      sources: [{ server: 'local', path: 'local/doc-1.md', startLine: 1, endLine: 4, title: 'local/doc-1.md:1-4' }],
    });
    expect(servers(results).sort()).toEqual(['local', 'wiki']);
  });

  it('should answer from the healthy server and add a notice for each server that is down', async () => {
    const notices: KnowledgeNotice[] = [];
    const knowledge = await startKnowledge(
      {
        mcpServers: {
          local: stdio({ name: 'local' }),
          gone: { url: `http://127.0.0.1:${await freePort()}/mcp` },
          missing: { command: '/nonexistent/mcp-server', args: [] },
        },
      },
      notices,
    );
    expect(knowledge.status.map((s) => [s.name, s.state])).toEqual([
      ['local', 'ready'],
      ['gone', 'down'],
      ['missing', 'down'],
    ]);
    const results = await knowledge.port.search('roadmaps');
    expect(servers(results)).toEqual(['local']);
    expect(notices.map((n) => [n.server, n.kind])).toEqual([
      ['gone', 'unreachable'],
      ['missing', 'unreachable'],
    ]);
    expect(notices[1]!.message).toMatch(/MCP server "missing" is unavailable: .*ENOENT/);
  });

  it('should give up on a slow server after its own configured timeout', async () => {
    const notices: KnowledgeNotice[] = [];
    const knowledge = await startKnowledge(
      {
        mcpServers: {
          fast: stdio({ name: 'fast' }),
          slow: stdio({ name: 'slow', delayMs: 5_000 }, { timeoutMs: 300 }),
        },
      },
      notices,
    );
    const started = Date.now();
    const results = await knowledge.port.search('roadmaps');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(servers(results)).toEqual(['fast']);
    expect(notices).toEqual([
      {
        server: 'slow',
        tool: 'knowledge_search',
        kind: 'timeout',
        message: 'MCP server "slow" did not answer knowledge_search within 300 ms.',
      },
    ]);
    expect(knowledge.manager.status().find((s) => s.name === 'slow')?.state).toBe('ready');
  });

  it('should report a server whose tool answers with an error and keep the others', async () => {
    const http = await httpFixture({ name: 'broken', mode: 'error' });
    const knowledge = await startKnowledge({ mcpServers: { ok: stdio({ name: 'ok' }), broken: { url: http.url } } });
    const answer = await knowledge.port.searchWithNotices('roadmaps');
    expect(servers(answer.results)).toEqual(['ok']);
    expect(answer.notices).toMatchObject([{ server: 'broken', kind: 'tool-error' }]);
    expect(answer.notices[0]!.message).toContain('broken index is corrupt');
  });

  it('should use an HTTP server again once it comes back after being down', async () => {
    const port = await freePort();
    let http = await startHttpFixture(port, { name: 'wiki' });
    const knowledge = await startKnowledge({ mcpServers: { wiki: { url: `http://127.0.0.1:${port}/mcp` } } });
    expect(servers(await knowledge.port.search('a'))).toEqual(['wiki']);

    await http.stop();
    const whileDown = await knowledge.port.searchWithNotices('b');
    expect(whileDown).toMatchObject({ results: [], notices: [{ server: 'wiki', kind: 'unreachable' }] });
    await expect(knowledge.port.search('b')).rejects.toSatisfy((e) => isAgentError(e, 'KNOWLEDGE_UNAVAILABLE'));

    http = await httpFixture({ name: 'wiki' }, port);
    const back = await knowledge.port.searchWithNotices('c');
    expect(back.notices).toEqual([]);
    expect(servers(back.results)).toEqual(['wiki']);
  });

  it('should respawn a stdio server that crashed mid-run and retry the read-only call on it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tm-mcp-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const crashMarker = join(folder, 'crashed');
    const knowledge = await startKnowledge({ mcpServers: { flaky: stdio({ name: 'flaky', crashMarker }) } });
    const answer = await knowledge.port.searchWithNotices('roadmaps');
    expect(answer.notices).toEqual([]);
    expect(servers(answer.results)).toEqual(['flaky']);
  });

  it('should wait out a reconnect backoff that doubles instead of hammering a server that is down', async () => {
    // A real HTTP server that refuses every MCP request, counting them: each count is a connection attempt.
    let requests = 0;
    const refusing = createServer((_req, res) => {
      requests += 1;
      res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => refusing.close(resolve)));
    const { port } = refusing.address() as AddressInfo;
    const config = parseMcpConfig({
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 600_000 },
      mcpServers: { down: { url: `http://127.0.0.1:${port}/mcp` } },
    });
    // Only the clock is fake: sockets and timers stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    cleanups.push(async () => vi.useRealTimers());
    const knowledge = await createMcpKnowledge(config);
    cleanups.push(() => knowledge.close());
    expect(knowledge.status).toMatchObject([{ name: 'down', state: 'down' }]);
    const afterStart = requests;
    expect(afterStart).toBeGreaterThan(0);

    const attemptsAfter = async (elapsedMs: number) => {
      vi.setSystemTime(Date.now() + elapsedMs);
      const answer = await knowledge.port.searchWithNotices('a');
      expect(answer.notices).toMatchObject([{ server: 'down', kind: 'unreachable' }]);
      expect(answer.notices[0]!.message).toMatch(/unavailable: .*Error POSTing to endpoint/);
      return requests;
    };
    expect(await attemptsAfter(30_000)).toBe(afterStart);
    const second = await attemptsAfter(31_000);
    expect(second).toBeGreaterThan(afterStart);
    // The next wait is twice as long: 2 minutes from the second attempt.
    expect(await attemptsAfter(90_000)).toBe(second);
    expect(await attemptsAfter(31_000)).toBeGreaterThan(second);
  });

  it('should pass domain_knowledge through to every server offering it', async () => {
    const knowledge = await startKnowledge({ mcpServers: { local: stdio({ name: 'local' }) } });
    const answer = await knowledge.port.domainKnowledge('决策', '矩阵');
    expect(answer.results).toMatchObject([
      { content: 'local on 决策', sources: [{ path: 'local/决策.md', startLine: 1 }] },
    ]);
  });
});
