import { readFileSync } from 'node:fs';
import { CREATE_MAP, CREATE_NODE, PROCESS_NODE, REVIEW_DECOMPOSITION } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForQuestion, waitForRun } from '../helpers/agent-driver.ts';
import { collectOverSse, collectOverWebSocket } from '../helpers/event-collector.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { parseScrape, sampleSum } from './prometheus-text.ts';

const providers = logicProviders;
const DASHBOARD = new URL('../../../../ops/grafana/thinkingmap.json', import.meta.url);

const script = {
  intent_decision: () => ({ intent: 'DECOMPOSE', reason: 'too broad', confidence: 0.9 }),
  strategy_decision: () => ({
    strategy: 'PARALLEL',
    factors: [{ factor: 'independence', assessment: 'separate' }],
    reason: 'independent',
  }),
  sub_question_proposal: () => ({
    rationale: 'two sides',
    subQuestions: [
      { key: 'a', question: 'Who buys?', goal: 'segments', dependsOn: [] },
      { key: 'b', question: 'What does it cost?', goal: 'price', dependsOn: [] },
    ],
  }),
};

async function scrape(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parseScrape(await response.text());
}

describe.each(providers)('operational metrics on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  beforeAll(async () => {
    model = await startScriptedModel(script);
    server = await startTestServer(provider, {
      model: model.model,
      app: { metricsPort: 0, metricsToken: 'operator-secret-0123456789' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it('should show a run, its model calls, tokens, events and open ws and sse subscriptions in /metrics', async () => {
    const metricsUrl = server.app.metricsUrl()!;
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, { input: { title: 'Launch a product' } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'Launch a product' } });
    const ws = collectOverWebSocket(server.connect(server.alice.token).client, map.id);
    const sse = collectOverSse(server.sse(server.alice.token), map.id);
    await eventually(async () => server.app.bus.listenerCount(map.id) === 2, 'both subscriptions to listen');

    const started = await call(client, PROCESS_NODE, { nodeId: root.id });
    const question = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: question.requestId, accept: true } });
    await waitForRun(client, map.id, started.id, ['COMPLETED']);
    for (const c of [ws, sse])
      await eventually(async () => c.events.some((e) => e.__typename === 'RunFinished'), 'RunFinished');

    const metrics = await eventually(async () => {
      const s = await scrape(metricsUrl);
      return sampleSum(s, 'thinkingmap_question_wait_seconds_count', { kind: 'review-decomposition' }) === 1 ? s : null;
    }, 'the answered question in the wait histogram');
    // Runs by status, read from the database.
    expect(sampleSum(metrics, 'thinkingmap_runs', { status: 'COMPLETED' })).toBe(1);
    expect(sampleSum(metrics, 'thinkingmap_runs', { status: 'RUNNING' })).toBe(0);
    // Model calls and tokens by agent: the scripted endpoint answered intent, strategy and decomposition once each.
    for (const agent of ['intent', 'strategy', 'decompose']) {
      expect(sampleSum(metrics, 'thinkingmap_model_calls_total', { agent, outcome: 'ok' })).toBe(1);
      expect(sampleSum(metrics, 'thinkingmap_model_tokens_total', { agent, kind: 'prompt' })).toBeGreaterThan(0);
      expect(sampleSum(metrics, 'thinkingmap_model_tokens_total', { agent, kind: 'completion' })).toBeGreaterThan(0);
      expect(sampleSum(metrics, 'thinkingmap_model_call_duration_seconds_count', { agent })).toBe(1);
    }
    // Events published, and delivered to each of the two subscribers.
    const published = sampleSum(metrics, 'thinkingmap_events_published_total');
    const stored = await server.db.read.event.count({ where: { mapId: map.id } });
    expect(published).toBe(stored);
    expect(sampleSum(metrics, 'thinkingmap_events_published_total', { type: 'RunFinished' })).toBe(1);
    expect(sampleSum(metrics, 'thinkingmap_events_delivered_total', { transport: 'ws' })).toBe(ws.events.length);
    expect(sampleSum(metrics, 'thinkingmap_events_delivered_total', { transport: 'sse' })).toBe(sse.events.length);
    expect(sampleSum(metrics, 'thinkingmap_subscriptions_open', { transport: 'ws' })).toBe(1);
    expect(sampleSum(metrics, 'thinkingmap_subscriptions_open', { transport: 'sse' })).toBe(1);
    // GraphQL operations by type, and the process itself.
    expect(sampleSum(metrics, 'graphql_envelop_request', { operationType: 'mutation' })).toBeGreaterThanOrEqual(4);
    expect(sampleSum(metrics, 'graphql_envelop_request', { operationType: 'query' })).toBeGreaterThan(0);
    expect(sampleSum(metrics, 'graphql_envelop_request_duration_count', { operationType: 'query' })).toBeGreaterThan(0);
    expect(sampleSum(metrics, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleSum(metrics, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    // What each bounded cache holds: a map read stored as an answer, its rows and its request's text.
    const before = await scrape(metricsUrl);
    const read = (encoding = 'gzip, deflate') =>
      fetch(`${server.app.url()}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'accept-encoding': encoding,
          authorization: `Bearer ${server.alice.token}`,
        },
        body: JSON.stringify({
          // Large enough to be sent compressed (over 1 KB).
          query: `{ map(id: "${map.id}") { ... on Map { id title nodes { ...N } again: nodes { ...N } } } }
            fragment N on Node { id parentId question goal status createdAt updatedAt }`,
        }),
      }).then((response) => response.json());
    const first = await read();
    expect(first.data.map.again).toHaveLength(3);
    expect(JSON.stringify(first).length).toBeGreaterThan(1024);
    expect(await read()).toEqual(first);
    const cached = await scrape(metricsUrl);
    // The same answer sent in another form (uncompressed) is weighed again with it.
    const answerBytes = (scraped: Awaited<ReturnType<typeof scrape>>) =>
      sampleSum(scraped, 'thinkingmap_cache_bytes', { cache: 'map_answers' });
    expect(await read('identity')).toEqual(first);
    expect(answerBytes(await scrape(metricsUrl))).toBeGreaterThan(answerBytes(cached));
    for (const cache of ['map_answers', 'map_rows', 'map_read_requests']) {
      expect(sampleSum(cached, 'thinkingmap_cache_entries', { cache })).toBeGreaterThan(0);
      expect(sampleSum(cached, 'thinkingmap_cache_bytes', { cache })).toBeGreaterThan(
        sampleSum(before, 'thinkingmap_cache_bytes', { cache }),
      );
    }

    ws.stop();
    sse.stop();
    const closed = await eventually(async () => {
      const s = await scrape(metricsUrl);
      return sampleSum(s, 'thinkingmap_subscriptions_open') === 0 ? s : null;
    }, 'both subscriptions to close');
    // The GraphQL plugin counts a subscription when it ends.
    expect(sampleSum(closed, 'graphql_envelop_request', { operationType: 'subscription' })).toBe(2);
  });

  it('should chart in the Grafana dashboard only metrics that /metrics exports', async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      schemaVersion: number;
      uid: string;
      panels: { id: number; type: string; gridPos: object; targets?: { expr: string; refId: string }[] }[];
    };
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.uid).toBe('thinkingmap');
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    const exprs = dashboard.panels.flatMap((p) => (p.type === 'row' ? [] : (p.targets ?? []).map((t) => t.expr)));
    expect(exprs.length).toBeGreaterThanOrEqual(15);
    const referenced = new Set(
      exprs.flatMap((e) => e.match(/\b(?:thinkingmap|graphql|process|nodejs)_[a-z0-9_]+/g) ?? []),
    );
    const exported = await scrape(server.app.metricsUrl()!);
    const missing = [...referenced].filter((name) => !exported.has(name));
    expect(missing).toEqual([]);
    // Every kind of metric of the issue is charted.
    for (const name of [
      'graphql_envelop_request',
      'graphql_envelop_request_duration_bucket',
      'thinkingmap_subscriptions_open',
      'thinkingmap_events_published_total',
      'thinkingmap_events_delivered_total',
      'thinkingmap_runs',
      'thinkingmap_model_calls_total',
      'thinkingmap_model_tokens_total',
      'thinkingmap_model_call_duration_seconds_bucket',
      'thinkingmap_model_errors_total',
      'thinkingmap_question_wait_seconds_bucket',
      'thinkingmap_cache_bytes',
      'process_cpu_seconds_total',
    ])
      expect(referenced).toContain(name);
  });

  it('should refuse /metrics on the API port without the operator token when tokens are required', async () => {
    const base = server.app.url();
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${server.alice.token}` } })).status,
    ).toBe(401);
    const metrics = await scrape(base, { authorization: 'Bearer operator-secret-0123456789' });
    expect(metrics.has('thinkingmap_runs')).toBe(true);
    // The private port serves nothing else.
    expect((await fetch(`${server.app.metricsUrl()}/graphql`)).status).toBe(404);
  });

  it('should answer /healthz and /readyz on both ports', async () => {
    for (const base of [server.app.url(), server.app.metricsUrl()!]) {
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', bus: 'ok' } });
    }
  });
});
