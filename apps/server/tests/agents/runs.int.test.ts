import {
  CANCEL_RUN,
  CREATE_NODE,
  EVENTS,
  MAP,
  NODE,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
  RUNS,
  SET_CONCLUSION,
  UPDATE_MAP,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForNodeStatus, waitForQuestion, waitForRun } from '../helpers/agent-driver.ts';
import { snapshot } from '../helpers/db-snapshot.ts';
import { mapWithRoot } from '../helpers/map-builder.ts';
import { DECOMPOSE_IN_TWO_STAGES } from '../helpers/scripted-answers.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

describe.each(providers)('a run waiting for the person on %s', (provider) => {
  it('should survive a server restart and finish, creating each approved child exactly once', async () => {
    const model = await startScriptedModel(DECOMPOSE_IN_TWO_STAGES);
    const server = await startTestServer(provider, { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await mapWithRoot(client);
      await call(client, PROCESS_NODE, { nodeId: rootId });
      const question = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
      await server.app.engine.idle();
      const modelCallsBefore = model.server.requests.length;

      await server.restart();

      const after = server.connect(server.alice.token).client;
      const pending = await waitForQuestion(after, mapId, { kind: 'review-decomposition' });
      expect(pending.requestId).toBe(question.requestId);
      expect(
        (await call(after, REVIEW_DECOMPOSITION, { input: { requestId: question.requestId, accept: true } }))
          .__typename,
      ).toBe('AgentRun');
      const runs = await eventually(async () => {
        const list = (await call(after, RUNS, { mapId })).data;
        return list[0]?.status === 'COMPLETED' ? list : null;
      }, 'the run to complete');
      expect(runs).toHaveLength(1);
      const root = await call(after, NODE, { id: rootId });
      expect(root.children.map((c: { question: string }) => c.question)).toEqual([
        'What do users need?',
        'What do we build first?',
      ]);
      // The resumed step re-ran from its start: no duplicate node, message or model call for the proposal.
      const map = await call(after, MAP, { id: mapId });
      expect(map.nodes).toHaveLength(3);
      expect(map.dependencies).toHaveLength(1);
      expect(model.server.requests.length).toBe(modelCallsBefore);
      const messages = root.conversations.find((c) => c.kind === 'DECOMPOSE')!.messages;
      expect(new Set(messages.map((m: { content: string }) => m.content)).size).toBe(messages.length);
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});

describe('runs and their faults', () => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let client: ReturnType<TestServer['connect']>['client'];

  beforeAll(async () => {
    model = await startScriptedModel({
      ...DECOMPOSE_IN_TWO_STAGES,
      clarify_question: () => ({ question: 'Who are the users?', why: 'the plan depends on them' }),
      conclusion_draft: () => ({
        kind: 'ANALYTICAL',
        conclusion: 'Ship the smallest useful slice.',
        keyPoints: ['slice'],
        confidence: 0.7,
      }),
    });
    server = await startTestServer('sqlite', { model: model.model, runSettings: { questionTtlMs: 60_000 } });
    client = server.connect(server.alice.token).client;
  });
  afterEach(() => server.app.engine.idle());
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it('should refuse a second run on a busy node, and let a cancelled node run again', async () => {
    const { mapId, rootId } = await mapWithRoot(client);
    const run = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CLARIFY' });
    await waitForQuestion(client, mapId, { kind: 'clarify' });
    const refused = await attempt(client, PROCESS_NODE, { nodeId: rootId });
    expect(refused).toMatchObject({
      __typename: 'ConflictError',
      code: 'CONFLICT',
      message: expect.stringContaining(run.id),
    });

    const cancelled = await call(client, CANCEL_RUN, { runId: run.id });
    expect(cancelled).toMatchObject({ __typename: 'AgentRun', status: 'CANCELLED' });
    expect((await attempt(client, CANCEL_RUN, { runId: run.id })).__typename).toBe('ValidationError');
    expect((await call(client, NODE, { id: rootId })).status).toBe('READY');
    const again = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CONCLUDE' });
    expect(again.__typename).toBe('AgentRun');
    const question = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    const stale = await attempt(client, REPLY_TO_AGENT, {
      input: { requestId: question.requestId, reply: { action: 'maybe' } },
    });
    expect(stale).toMatchObject({ __typename: 'ValidationError' });
    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
    await waitForNodeStatus(client, rootId, 'COMPLETED');
  });

  it('should repair unparseable output once, and fail visibly with the raw text when it stays unparseable', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Repairable');
    model.server.enqueue({ content: 'not json at all' });
    await call(client, PROCESS_NODE, { nodeId: rootId });
    await waitForQuestion(client, mapId, { kind: 'review-decomposition' });

    const second = await mapWithRoot(client, 'Hopeless');
    const before = await snapshot(server.db);
    model.server.enqueue({ content: 'garbage one' }, { content: '{"intent": "MAYBE"}' });
    const run = await call(client, PROCESS_NODE, { nodeId: second.rootId });
    const failed = await waitForRun(client, second.mapId, run.id, ['FAILED']);
    expect(failed).toMatchObject({ errorCode: 'MODEL_UNPARSEABLE', raw: '{"intent": "MAYBE"}' });
    const node = await call(client, NODE, { id: second.rootId });
    expect(node.status).toBe('FAILED');
    expect(node.children).toEqual([]);
    expect(before).not.toBe(await snapshot(server.db)); // the run and its failure are recorded …
    expect((await call(client, MAP, { id: second.mapId })).nodes).toHaveLength(1); // … but the map gained nothing
    const events = (await call(client, EVENTS, { mapId: second.mapId, first: 500 })).events as Record<
      string,
      unknown
    >[];
    expect(events.find((e) => e.__typename === 'RunFailed')).toMatchObject({
      runId: run.id,
      code: 'MODEL_UNPARSEABLE',
      run: { raw: '{"intent": "MAYBE"}' },
    });
  });

  it('should retry after a 429 and succeed, and fail with MODEL_TIMEOUT when the model never answers', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Rate limited');
    model.server.enqueue({ status: 429, message: 'slow down', retryAfterSeconds: 0 });
    await call(client, PROCESS_NODE, { nodeId: rootId });
    await waitForQuestion(client, mapId, { kind: 'review-decomposition', nodeId: rootId });

    const slow = await mapWithRoot(client, 'Timed out');
    model.server.enqueue(...Array.from({ length: 3 }, () => ({ content: '{}', delayMs: 5_000 })));
    const run = await call(client, PROCESS_NODE, { nodeId: slow.rootId });
    const failed = await eventually(
      async () => {
        const r = (await call(client, RUNS, { mapId: slow.mapId })).data.find((x: { id: string }) => x.id === run.id);
        return r?.status === 'FAILED' ? r : null;
      },
      'the timed-out run to fail',
      20_000,
    );
    expect(failed.errorCode).toBe('MODEL_TIMEOUT');
  }, 40_000);

  it('should run independent siblings in parallel and keep several questions waiting at once', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Parallel');
    const children = [];
    for (const q of ['Left?', 'Right?', 'Centre?'])
      children.push(await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question: q } }));
    await Promise.all(children.map((c) => call(client, PROCESS_NODE, { nodeId: c.id, intent: 'CLARIFY' })));
    for (const c of children) await waitForQuestion(client, mapId, { kind: 'clarify', nodeId: c.id });
    const first = children[0]!;
    const question = await waitForQuestion(client, mapId, { kind: 'clarify', nodeId: first.id });
    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, text: 'Students' } });
    await waitForNodeStatus(client, first.id, 'WAITING');
    for (const c of children.slice(1))
      expect((await waitForQuestion(client, mapId, { kind: 'clarify', nodeId: c.id })).nodeId).toBe(c.id);
  });

  it('should start the parent’s conclusion when its last child concludes, unless the map pauses automatic runs', async () => {
    for (const autoRun of [false, true]) {
      const { mapId, rootId } = await mapWithRoot(client, `Bottom-up with autoRun ${autoRun}`);
      await call(client, UPDATE_MAP, { input: { id: mapId, autoRun } });
      const children: { id: string }[] = [];
      for (const question of ['Who buys?', 'What does it cost?'])
        children.push(await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question } }));
      await call(client, SET_CONCLUSION, { input: { nodeId: children[0]!.id, conclusion: 'Students.' } });
      await server.app.engine.idle();
      expect((await call(client, RUNS, { mapId })).data).toEqual([]);
      await call(client, SET_CONCLUSION, { input: { nodeId: children[1]!.id, conclusion: 'About 50k.' } });
      await server.app.engine.idle();
      const runs = (await call(client, RUNS, { mapId })).data as { nodeId: string }[];
      expect(runs.map((r) => r.nodeId)).toEqual(autoRun ? [rootId] : []);
    }
  });

  it('should stop model calls when the map token budget is spent, with a clear reason', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Budget');
    expect(await attempt(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: 0 } })).toMatchObject({
      __typename: 'ValidationError',
      field: 'tokenBudget',
    });
    // A budget of one token cannot hold any prompt: no model call is made, and the reason says so.
    const limited = await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: 1 } });
    expect(limited).toMatchObject({ __typename: 'Map', tokenBudget: 1, tokensUsed: 0 });
    const calls = model.server.requests.length;
    const run = await call(client, PROCESS_NODE, { nodeId: rootId });
    const failed = await waitForRun(client, mapId, run.id, ['FAILED']);
    expect(failed.errorCode).toBe('BUDGET_EXHAUSTED');
    expect(failed.error).toMatch(/0 of 1 tokens spent\. This model call needs about \d+ tokens .* so it was not made/);
    expect(model.server.requests.length).toBe(calls);
    expect((await call(client, UPDATE_MAP, { input: { id: mapId } })).tokensUsed).toBe(0);

    // Lifting the limit (an explicit null) lets the node run again.
    expect(await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: null } })).toMatchObject({
      tokenBudget: null,
    });
    await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CLARIFY' });
    await waitForQuestion(client, mapId, { kind: 'clarify', nodeId: rootId });
  });

  it("should refuse another user's run operations and bad ids with typed errors, changing nothing", async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Private thinking');
    const run = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CLARIFY' });
    const question = await waitForQuestion(client, mapId, { kind: 'clarify' });
    const bob = server.connect(server.bob.token).client;
    const before = await snapshot(server.db);
    expect(await attempt(bob, PROCESS_NODE, { nodeId: rootId })).toMatchObject({ __typename: 'ForbiddenError' });
    expect(
      await attempt(bob, REPLY_TO_AGENT, { input: { requestId: question.requestId, text: 'hijack' } }),
    ).toMatchObject({
      __typename: 'ForbiddenError',
    });
    expect(await attempt(bob, CANCEL_RUN, { runId: run.id })).toMatchObject({ __typename: 'ForbiddenError' });
    expect((await attempt(bob, RUNS, { mapId })).__typename).toBe('ForbiddenError');
    expect(await attempt(client, REPLY_TO_AGENT, { input: { requestId: 'nope', text: 'x' } })).toMatchObject({
      __typename: 'ValidationError',
      field: 'requestId',
    });
    expect(
      await attempt(client, REPLY_TO_AGENT, { input: { requestId: 'c000000000000000000000000', text: 'x' } }),
    ).toMatchObject({ __typename: 'NotFoundError' });
    expect(await attempt(client, REPLY_TO_AGENT, { input: { requestId: question.requestId } })).toMatchObject({
      __typename: 'ValidationError',
      field: 'reply',
    });
    expect(await attempt(client, PROCESS_NODE, { nodeId: 'c000000000000000000000000' })).toMatchObject({
      __typename: 'NotFoundError',
    });
    expect(await snapshot(server.db)).toBe(before);
    await call(client, CANCEL_RUN, { runId: run.id });
  });

  it('should let an unanswered review expire without concluding: the run pauses until the person answers', async () => {
    const quick = await startTestServer('sqlite', { model: model.model, runSettings: { questionTtlMs: 300 } });
    try {
      const c = quick.connect(quick.alice.token).client;
      const { mapId, rootId } = await mapWithRoot(c, 'Expiring');
      const run = await call(c, PROCESS_NODE, { nodeId: rootId, intent: 'CONCLUDE' });
      await waitForQuestion(c, mapId, { kind: 'review-conclusion' });
      await waitForRun(c, mapId, run.id, ['PAUSED']);
      expect((await call(c, NODE, { id: rootId })).conclusion).toBeNull();
    } finally {
      await quick.close();
    }
  });
});
