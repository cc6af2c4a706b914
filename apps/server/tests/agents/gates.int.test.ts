import {
  CREATE_MAP,
  MAP,
  NODE,
  PENDING_QUESTIONS,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
  RUNS,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Question, waitForQuestion, waitForRun } from '../helpers/agent-driver.ts';
import { snapshot } from '../helpers/db-snapshot.ts';
import { mapWithRoot } from '../helpers/map-builder.ts';
import { DECOMPOSE_IN_TWO_STAGES, TWO_STAGE_PROPOSAL } from '../helpers/scripted-answers.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { callTool, connectOverHttp } from '../mcp/mcp-client.ts';

const providers = logicProviders;

const script = {
  ...DECOMPOSE_IN_TWO_STAGES,
  clarify_question: (prompt: string) =>
    /[\u4e00-\u9fff]/.test(prompt)
      ? { question: '用户是谁？', why: '计划取决于用户' }
      : { question: 'Who are the users?', why: 'the plan depends on them' },
  conclusion_draft: () => ({
    kind: 'ANALYTICAL',
    conclusion: 'Ship the smallest useful slice.',
    keyPoints: ['slice'],
    confidence: 0.7,
  }),
  problem_understanding: () => ({
    title: 'Launch plan',
    problem: 'Plan a product launch',
    goal: 'launch in spring',
    constraints: [],
  }),
};

/** Waits until the question `requestId` expired and its run is PAUSED; returns the question as listed then. */
async function waitUntilPaused(client: Client, mapId: string, question: Question): Promise<Question> {
  await waitForRun(client, mapId, question.runId, ['PAUSED']);
  const { data: pending } = await call(client, PENDING_QUESTIONS, { mapId });
  const listed = pending.find((q) => q.requestId === question.requestId);
  expect(listed).toMatchObject({ status: 'EXPIRED', answerable: true, kind: question.kind });
  return listed!;
}

/** The text of every message in a node's conversations, with its kind. */
async function messagesOf(client: Client, nodeId: string) {
  const node = await call(client, NODE, { id: nodeId });
  return node.conversations.flatMap((c) => c.messages.map((m) => ({ kind: m.kind, content: m.content })));
}

describe.each(providers)('a gate that expires on %s never decides for the person', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let client: Client;

  beforeAll(async () => {
    model = await startScriptedModel(script);
    server = await startTestServer(provider, { model: model.model, runSettings: { questionTtlMs: 200 } });
    client = server.connect(server.alice.token).client;
  });
  afterEach(() => server.app.engine.idle());
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it('should keep an expired review-decomposition unanswered: no children, the run PAUSED, then approve it later', async () => {
    const { mapId, rootId } = await mapWithRoot(client, undefined, { understand: false });
    const run = await call(client, PROCESS_NODE, { nodeId: rootId });
    const question = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    await waitUntilPaused(client, mapId, question);
    expect((await call(client, NODE, { id: rootId })).children).toEqual([]);
    const { data: runs } = await call(client, RUNS, { mapId });
    expect(runs.find((r) => r.id === run.id)?.status).toBe('PAUSED');

    const resumed = await call(client, REVIEW_DECOMPOSITION, {
      input: { requestId: question.requestId, accept: true },
    });
    expect(resumed).toMatchObject({ __typename: 'AgentRun', id: run.id });
    await waitForRun(client, mapId, run.id, ['COMPLETED']);
    const root = await call(client, NODE, { id: rootId });
    expect(root.children.map((c) => c.question)).toEqual(['What do users need?', 'What do we build first?']);
    const { data: after } = await call(client, PENDING_QUESTIONS, { mapId });
    expect(after.find((q) => q.requestId === question.requestId)).toBeUndefined();
  });

  it('should keep an expired review-conclusion unanswered: the node not concluded, then accept it later', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Expiring conclusion', { understand: false });
    const run = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CONCLUDE' });
    const question = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    await waitUntilPaused(client, mapId, question);
    const waiting = await call(client, NODE, { id: rootId });
    expect(waiting.conclusion).toBeNull();
    expect(waiting.status).not.toBe('COMPLETED');

    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
    await waitForRun(client, mapId, run.id, ['COMPLETED']);
    const done = await call(client, NODE, { id: rootId });
    expect(done).toMatchObject({ status: 'COMPLETED', conclusion: 'Ship the smallest useful slice.' });
  });

  it('should keep an expired confirm-understanding unanswered: no root, then confirm it later', async () => {
    const map = await call(client, CREATE_MAP, { input: { problem: 'How should we launch the product?' } });
    const question = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
    await waitUntilPaused(client, map.id, question);
    expect((await call(client, MAP, { id: map.id })).nodes).toEqual([]);

    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
    await waitForRun(client, map.id, question.runId, ['COMPLETED']);
    const nodes = (await call(client, MAP, { id: map.id })).nodes;
    expect(nodes.map((n) => n.question)).toEqual(['Plan a product launch']);
  });

  it('should let the person redo a paused step: processing the node again replaces the paused run', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Redo me', { understand: false });
    const first = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CONCLUDE' });
    const question = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    await waitUntilPaused(client, mapId, question);

    const again = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CONCLUDE' });
    expect(again).toMatchObject({ __typename: 'AgentRun', status: 'RUNNING' });
    expect(again.id).not.toBe(first.id);
    const { data: runs } = await call(client, RUNS, { mapId });
    expect(runs.find((r) => r.id === first.id)).toMatchObject({ status: 'CANCELLED' });
    // The replaced run's question can no longer be answered; the new run asks its own.
    expect(
      await attempt(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } }),
    ).toMatchObject({ __typename: 'ValidationError', field: 'requestId' });
    const next = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    expect(next.runId).toBe(again.id);
  });
});

describe('a clarifying question that expires or is skipped', () => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let client: Client;

  beforeAll(async () => {
    model = await startScriptedModel(script);
    server = await startTestServer('sqlite', { model: model.model, runSettings: { questionTtlMs: 200 } });
    client = server.connect(server.alice.token).client;
  });
  afterEach(() => server.app.engine.idle());
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it.each([
    ['English', 'Plan a product launch', /expired without an answer/],
    ['Chinese', '我们应该如何发布新产品？', /问题已过期/],
  ])('should go on with what it has and say so in a %s map', async (_language, question, notice) => {
    const { mapId, rootId } = await mapWithRoot(client, question, { understand: false });
    await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CLARIFY' });
    // The clarifying question expired unanswered (it is not listed any more) and the run went on by itself to
    // its conclusion, which waits for the person (a gate).
    await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    const messages = await messagesOf(client, rootId);
    expect(messages).toContainEqual({ kind: 'TEXT', content: expect.stringMatching(/Who are the users\?|用户是谁？/) });
    expect(messages).toContainEqual({ kind: 'NOTICE', content: expect.stringMatching(notice) });
    const { data: pending } = await call(client, PENDING_QUESTIONS, { mapId });
    expect(pending.map((q) => q.kind)).toEqual(['review-conclusion']);
  });
});

describe('the person steers a run', () => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let client: Client;
  let proposed: object = TWO_STAGE_PROPOSAL;

  beforeAll(async () => {
    model = await startScriptedModel({ ...script, sub_question_proposal: () => proposed });
    server = await startTestServer('sqlite', { model: model.model, runSettings: { questionTtlMs: 60_000 } });
    client = server.connect(server.alice.token).client;
  });
  afterEach(async () => {
    proposed = TWO_STAGE_PROPOSAL;
    await server.app.engine.idle();
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it('should skip one clarifying question without cancelling the run, and refuse to skip a gate', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Skip this', { understand: false });
    const run = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CLARIFY' });
    const clarify = await waitForQuestion(client, mapId, { kind: 'clarify' });
    const skipped = await call(client, REPLY_TO_AGENT, { input: { requestId: clarify.requestId, skip: true } });
    expect(skipped).toMatchObject({ __typename: 'AgentRun', id: run.id });
    const review = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    expect(review.runId).toBe(run.id);
    expect(await messagesOf(client, rootId)).toContainEqual({
      kind: 'NOTICE',
      content: expect.stringMatching(/skipped this question/),
    });

    const before = await snapshot(server.db);
    expect(await attempt(client, REPLY_TO_AGENT, { input: { requestId: review.requestId, skip: true } })).toMatchObject(
      {
        __typename: 'ValidationError',
        field: 'skip',
      },
    );
    expect(await snapshot(server.db)).toBe(before);
  });

  it('should skip a clarifying question through MCP too, the run going on to its conclusion', async () => {
    const mcp = await connectOverHttp(server.app.url(), server.alice.token);
    try {
      const { mapId, rootId } = await mapWithRoot(client, 'Skip over MCP', { understand: false });
      const started = await callTool(mcp, 'process_node', { nodeId: rootId, intent: 'CLARIFY' });
      const clarify = started.pendingQuestions.find((q: { kind: string }) => q.kind === 'clarify');
      expect(clarify).toMatchObject({ runId: started.run.id, status: 'PENDING' });
      const skipped = await callTool(mcp, 'reply_to_agent', { requestId: clarify.requestId, skip: true });
      expect(skipped.run.id).toBe(started.run.id);
      const review = await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: rootId });
      expect(review.runId).toBe(started.run.id);
    } finally {
      await mcp.close();
    }
  });

  it('should refuse edits whose dependencies form a cycle, naming the path, with the question still waiting', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Cyclic review', { understand: false });
    const run = await call(client, PROCESS_NODE, { nodeId: rootId });
    const question = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    const before = await snapshot(server.db);
    const cyclic = await attempt(client, REVIEW_DECOMPOSITION, {
      input: {
        requestId: question.requestId,
        accept: true,
        subQuestions: [
          { key: 'a', question: 'Needs?', goal: 'needs', dependsOn: ['b'] },
          { key: 'b', question: 'Slice?', goal: 'slice', dependsOn: ['a'] },
        ],
      },
    });
    expect(cyclic).toMatchObject({
      __typename: 'CycleError',
      path: ['b', 'a', 'b'],
      questions: ['Slice?', 'Needs?', 'Slice?'],
    });
    const unknown = await attempt(client, REPLY_TO_AGENT, {
      input: {
        requestId: question.requestId,
        reply: {
          action: 'approve',
          subQuestions: [{ key: 'x', question: 'Needs?', goal: 'needs', dependsOn: ['nope'] }],
        },
      },
    });
    expect(unknown).toMatchObject({ __typename: 'ValidationError', field: 'reply.subQuestions.0.dependsOn.0' });
    expect(await snapshot(server.db)).toBe(before);
    expect((await waitForQuestion(client, mapId, { kind: 'review-decomposition' })).status).toBe('PENDING');

    await call(client, REVIEW_DECOMPOSITION, {
      input: {
        requestId: question.requestId,
        accept: true,
        subQuestions: [
          { key: 'a', question: 'Needs?', goal: 'needs', dependsOn: [] },
          { key: 'b', question: 'Slice?', goal: 'slice', dependsOn: ['a'] },
        ],
      },
    });
    await waitForRun(client, mapId, run.id, ['COMPLETED']);
    const map = await call(client, MAP, { id: mapId });
    expect(map.nodes.map((n) => n.question).sort()).toEqual(['Cyclic review', 'Needs?', 'Slice?']);
    expect(map.dependencies).toHaveLength(1);
  });

  it('should flag a cycle and an unknown key the model proposed instead of dropping them unseen', async () => {
    proposed = {
      rationale: 'loops',
      subQuestions: [
        { key: 'a', question: 'Needs?', goal: 'needs', dependsOn: ['b'] },
        { key: 'b', question: 'Slice?', goal: 'slice', dependsOn: ['a', 'ghost'] },
      ],
    };
    const { mapId, rootId } = await mapWithRoot(client, 'Model loops', { understand: false });
    await call(client, PROCESS_NODE, { nodeId: rootId });
    const question = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    expect((question.context as { problems: unknown }).problems).toEqual([
      { from: 'b', to: 'a', reason: 'cycle', path: ['b', 'a', 'b'] },
      { from: 'b', to: 'ghost', reason: 'unknown' },
    ]);
  });

  it('should record a strategy chosen at review on the node and in the next question, like the model’s', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Strategy at review', { understand: false });
    await call(client, PROCESS_NODE, { nodeId: rootId });
    const first = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    expect((first.context as { strategy: unknown }).strategy).toMatchObject({ strategy: 'SEQUENTIAL' });
    expect((await call(client, NODE, { id: rootId })).strategy).toBe('SEQUENTIAL');

    await call(client, REVIEW_DECOMPOSITION, {
      input: { requestId: first.requestId, accept: false, feedback: 'do them side by side', strategy: 'PARALLEL' },
    });
    const second = await eventually(async () => {
      const { data } = await call(client, PENDING_QUESTIONS, { mapId });
      return data.find((q) => q.kind === 'review-decomposition' && q.requestId !== first.requestId);
    }, 'the second proposal');
    expect((second.context as { strategy: unknown }).strategy).toMatchObject({
      strategy: 'PARALLEL',
      reason: 'chosen by the person',
    });
    expect((await call(client, NODE, { id: rootId })).strategy).toBe('PARALLEL');
  });
});
