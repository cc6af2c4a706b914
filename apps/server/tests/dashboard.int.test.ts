import { CREATE_MAP, CREATE_NODE, DASHBOARD, graphql, PROCESS_NODE, RUNS, UPDATE_MAP } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForQuestion, waitForRun } from './helpers/agent-driver.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

type Client = ReturnType<TestServer['connect']>['client'];

/** The dashboard asked with literal arguments, aliases and no variables, as another client would write it. */
const LITERAL_RANGES = graphql(`
  query {
    lastWeek: dashboard(days: 7) {
      ... on QueryDashboardSuccess { data { from to days: tokensByDay { day } } }
    }
    nothing: dashboard(days: 0) {
      __typename
      ... on ValidationError { code field }
    }
    backwards: dashboard(from: "2026-03-02T00:00:00Z", to: "2026-03-01T00:00:00Z") {
      __typename
      ... on ValidationError { code field }
    }
  }
`);

describe.each(providers)('the viewer’s dashboard on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    model = await startScriptedModel({
      clarify_question: () => ({ question: 'Which city?', why: 'it changes the answer' }),
      // A drafted conclusion is streamed; this one stops after 64 characters until released, so the run is in
      // flight while the dashboard is read.
      conclusion_draft: () => ({
        content: JSON.stringify({
          kind: 'DECISION',
          conclusion: 'Slowly, then all at once.',
          keyPoints: ['a'],
          confidence: 0.8,
        }),
        chunkSize: 8,
        pauseAfterChars: 64,
        resume: held,
      }),
    });
    server = await startTestServer(provider, { model: model.model, runSettings: { questionTtlMs: 60_000 } });
  });
  afterAll(async () => {
    release();
    await server?.app.engine.idle();
    await server?.close();
    await model?.server.close();
  });

  async function mapWithRoot(client: Client, title: string) {
    const map = await call(client, CREATE_MAP, { input: { title, understand: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: title } });
    return { map, root };
  }

  /** The tokens a map's runs report, read through the runs query. */
  async function tokensOf(client: Client, mapId: string) {
    const { data: runs } = await call(client, RUNS, { mapId });
    return runs.reduce((sum, run) => sum + run.promptTokens + run.completionTokens, 0);
  }

  it('should count the viewer’s maps, nodes, runs, questions, tokens and errors, and nothing of anyone else’s', async () => {
    const alice = server.connect(server.alice.token).client;
    const bob = server.connect(server.bob.token).client;

    const asking = await mapWithRoot(alice, 'Open a café?');
    await call(alice, PROCESS_NODE, { nodeId: asking.root.id, intent: 'CLARIFY' });
    const question = await waitForQuestion(alice, asking.map.id, { kind: 'clarify' });

    const archived = await mapWithRoot(alice, 'An old idea');
    await call(alice, CREATE_NODE, {
      input: { mapId: archived.map.id, question: 'A detail', parentId: archived.root.id },
    });
    await call(alice, UPDATE_MAP, { input: { id: archived.map.id, status: 'ARCHIVED' } });

    const failing = await mapWithRoot(alice, 'Hopeless');
    model.server.enqueue({ content: 'garbage one' }, { content: '{"intent": "MAYBE"}' });
    const failed = await call(alice, PROCESS_NODE, { nodeId: failing.root.id });
    await waitForRun(alice, failing.map.id, failed.id, ['FAILED']);

    const bobs = await mapWithRoot(bob, 'Bob’s own question');
    await call(bob, PROCESS_NODE, { nodeId: bobs.root.id, intent: 'CLARIFY' });
    await waitForQuestion(bob, bobs.map.id, { kind: 'clarify' });

    const { data } = await call(alice, DASHBOARD, { days: 3 });
    expect(data.mapsByStatus).toEqual([
      { status: 'ACTIVE', count: 2 },
      { status: 'ARCHIVED', count: 1 },
    ]);
    expect(data.nodesByStatus).toEqual([
      { status: 'FAILED', count: 1 },
      { status: 'READY', count: 2 },
      { status: 'WAITING', count: 1 },
    ]);
    expect(data.runsInFlight).toEqual([]);
    expect(data.runsWaiting).toEqual([
      expect.objectContaining({
        id: question.runId,
        mapId: asking.map.id,
        mapTitle: 'Open a café?',
        nodeId: asking.root.id,
        nodeQuestion: 'Open a café?',
        status: 'WAITING',
        step: 'waitForAnswer',
      }),
    ]);
    expect(data.questions).toEqual([
      expect.objectContaining({
        requestId: question.requestId,
        question: 'Which city?',
        kind: 'clarify',
        mapId: asking.map.id,
        mapTitle: 'Open a café?',
        nodeId: asking.root.id,
        nodeQuestion: 'Open a café?',
      }),
    ]);

    // Tokens: what the runs report, per map and summed per day; three days listed, today last.
    const spent = { asking: await tokensOf(alice, asking.map.id), failing: await tokensOf(alice, failing.map.id) };
    expect(spent.asking).toBeGreaterThan(0);
    const total = (row: { promptTokens: number; completionTokens: number }) => row.promptTokens + row.completionTokens;
    expect(Object.fromEntries(data.tokensByMap.map((row) => [row.mapTitle, total(row)]))).toEqual({
      'Open a café?': spent.asking,
      ...(spent.failing ? { Hopeless: spent.failing } : {}),
    });
    expect(data.tokensByDay.map((row) => row.day)).toHaveLength(3);
    expect(data.tokensByDay.at(-1)?.day).toBe(new Date().toISOString().slice(0, 10));
    expect(data.tokensByDay.reduce((sum, row) => sum + total(row), 0)).toBe(spent.asking + spent.failing);

    expect(data.errorsByCode).toEqual([{ code: 'MODEL_UNPARSEABLE', count: 1 }]);
    expect(data.recentErrors).toEqual([
      expect.objectContaining({
        runId: failed.id,
        mapId: failing.map.id,
        mapTitle: 'Hopeless',
        code: 'MODEL_UNPARSEABLE',
      }),
    ]);

    // Bob sees his own map only.
    const bobsView = (await call(bob, DASHBOARD, {})).data;
    expect(bobsView.mapsByStatus).toEqual([{ status: 'ACTIVE', count: 1 }]);
    expect(bobsView.questions.map((q) => q.mapId)).toEqual([bobs.map.id]);
    expect(bobsView.errorsByCode).toEqual([]);
    expect(bobsView.tokensByMap.map((row) => row.mapId)).toEqual([bobs.map.id]);
  });

  it('should show a run in flight with the step it is in', async () => {
    const alice = server.connect(server.alice.token).client;
    const slow = await mapWithRoot(alice, 'Slow question');
    const run = await call(alice, PROCESS_NODE, { nodeId: slow.root.id, intent: 'CONCLUDE' });
    const inFlight = await eventually(async () => {
      const { data } = await call(alice, DASHBOARD, {});
      return data.runsInFlight.find((r) => r.id === run.id && r.step === 'draftConclusion');
    }, 'the slow run to be in flight in its drafting step');
    expect(inFlight).toMatchObject({ mapTitle: 'Slow question', nodeQuestion: 'Slow question', status: 'RUNNING' });

    release();
    await waitForQuestion(alice, slow.map.id, { kind: 'review-conclusion' });
    const { data } = await call(alice, DASHBOARD, {});
    expect(data.runsInFlight.map((r) => r.id)).not.toContain(run.id);
    expect(data.runsWaiting.map((r) => r.id)).toContain(run.id);
    expect(data.tokensByDay).toHaveLength(14);
  });

  it('should refuse a range it cannot read with a ValidationError', async () => {
    const alice = server.connect(server.alice.token).client;
    const result = await alice.query(LITERAL_RANGES, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.lastWeek).toMatchObject({ data: { days: expect.any(Array) } });
    expect(result.data?.lastWeek && 'data' in result.data.lastWeek && result.data.lastWeek.data.days).toHaveLength(7);
    expect(result.data?.nothing).toEqual({ __typename: 'ValidationError', code: 'VALIDATION', field: 'days' });
    expect(result.data?.backwards).toEqual({ __typename: 'ValidationError', code: 'VALIDATION', field: 'from' });
    const both = await attempt(alice, DASHBOARD, { days: 2, from: '2026-01-01T00:00:00Z' });
    expect(both).toMatchObject({ __typename: 'ValidationError', field: 'days' });
  });
});
