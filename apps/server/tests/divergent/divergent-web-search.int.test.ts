import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWebSearch } from '@thinkingmap/agent-core';
import { DIVERGENT_SKILLS, START_DIVERGENT } from '@thinkingmap/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { divergentModel, readSession, rootOf, waitForSessionStatus } from './divergent-helpers.ts';

/** A real local search API answering like SearXNG's `format=json`; it records the queries it got. */
async function startSearchApi() {
  const queries: { q: string | null; auth: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    queries.push({ q: url.searchParams.get('q'), auth: req.headers.authorization });
    if (url.searchParams.get('q')?.includes('broken')) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        results: [
          { title: 'Café rents 2026', url: 'https://example.org/rents', content: 'Rents near the river rose 4%.' },
          { title: 'Footfall study', url: 'https://example.org/footfall', content: 'Noon footfall peaks north.' },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
  return { url, queries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const webTask = (name: string, query: string) => ({ name, query, skill: 'webSearch', priority: 4 });

describe('divergent webSearch through an operator-configured HTTP search API', { timeout: 150_000 }, () => {
  let search: Awaited<ReturnType<typeof startSearchApi>>;
  let model: Awaited<ReturnType<typeof divergentModel>>;
  let server: TestServer;

  beforeAll(async () => {
    search = await startSearchApi();
    model = await divergentModel({
      plans: [[webTask('rents', 'cafe rents by the river'), webTask('outage', 'broken search')], []],
      scores: [0.95],
    });
    server = await startTestServer('sqlite', {
      model: model.model,
      app: { webSearch: new HttpWebSearch({ url: search.url, apiKey: 'search-key' }) },
    });
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
    await search?.close();
  });

  it('should offer webSearch, run its tasks against the search API with the sources kept, and fail a task whose search is down', async () => {
    const { client } = server.connect(server.alice.token);
    const skills = await call(client, DIVERGENT_SKILLS);
    expect(skills.find((s) => s.name === 'webSearch')).toEqual({ name: 'webSearch', available: true, reason: null });

    const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
    const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
    await waitForSessionStatus(client, run.id, 'COMPLETED');
    const session = await readSession(client, run.id);
    expect(session.levels[0]!.tasks.map((t) => [t.name, t.skill, t.status])).toEqual([
      ['rents', 'webSearch', 'DONE'],
      ['outage', 'webSearch', 'FAILED'],
    ]);
    expect(session.levels[0]!.tasks[1]!.reason).toContain('the search service answered 503');
    expect(search.queries).toEqual([
      { q: 'cafe rents by the river', auth: 'Bearer search-key' },
      { q: 'broken search', auth: 'Bearer search-key' },
    ]);
    // The planner was offered web search.
    const planPrompt = model.prompts().find((p) => p.includes('task planner of a divergent exploration'));
    expect(planPrompt).toContain('webSearch');

    const rents = await server.db.read.node.findFirstOrThrow({ where: { mapId, question: 'rents' } });
    expect(rents.conclusion).toContain('Rents near the river rose 4%.');
    const message = await server.db.read.message.findFirstOrThrow({
      where: { kind: 'RAG', content: rents.conclusion! },
    });
    expect((message.metadata as { sources: unknown }).sources).toEqual([
      { title: 'Café rents 2026', uri: 'https://example.org/rents' },
      { title: 'Footfall study', uri: 'https://example.org/footfall' },
    ]);

    // The final output ends with the sources of the task it drew on, written by the code: the hits' pages.
    const final = await server.db.read.node.findUniqueOrThrow({ where: { id: session.finalNodeId! } });
    expect(final.conclusion).toMatch(
      /\n\n## Sources\n\n- \[L1\.T1\] rents\n {2}- \[Café rents 2026\]\(https:\/\/example\.org\/rents\)\n {2}- \[Footfall study\]\(https:\/\/example\.org\/footfall\)$/,
    );
    expect(session.drewOn).toEqual(['L1.T1']);
  });
});
