import {
  ADD_CONTEXT_ITEM,
  CREATE_MAP,
  CREATE_NODE,
  PROCESS_NODE,
  REMOVE_CONTEXT_ITEM,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
  RUN_PATH,
  UPDATE_MAP,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForQuestion, waitForRun } from './helpers/agent-driver.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const [provider] = logicProviders;

describe('runPath', () => {
  let server: TestServer;

  beforeAll(async () => {
    const model = await startScriptedModel({
      intent_decision: () => ({ intent: 'DECOMPOSE', reason: 'broad', confidence: 0.9 }),
      strategy_decision: () => ({ strategy: 'PARALLEL', factors: [{ factor: 'f', assessment: 'a' }], reason: 'r' }),
      sub_question_proposal: (_prompt, n) => ({
        rationale: 'split',
        subQuestions: [{ key: 'a', question: `Sub-question, round ${n}`, goal: 'g', dependsOn: [] }],
      }),
      conclusion_draft: (prompt, n) => ({
        kind: 'ANALYTICAL',
        conclusion: `Draft ${n}: ${prompt.includes('Shorter, please.') ? 'short.' : 'a long answer '.repeat(200)}`,
        keyPoints: ['k'],
        confidence: 0.6,
      }),
    });
    server = await startTestServer(provider!, { model: model.model });
  });
  afterAll(() => server.close());

  it('should show the path with the live step, and a rejected proposal as a second round of the loop', async () => {
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, { input: { title: 'Write a novel?' } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'Write a novel?' } });
    const run = await call(client, PROCESS_NODE, { nodeId: root.id });
    const first = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    const waiting = await eventually(async () => {
      const path = await call(client, RUN_PATH, { runId: run.id });
      return path.current === 'reviewProposal' ? path : null;
    }, 'the run to wait in reviewProposal');
    expect(waiting.graph).toBe('process-node');
    expect(waiting.steps.map((s) => s.step)).toEqual([
      'collectContext',
      'checkDependencies',
      'recognizeIntent',
      'decideStrategy',
      'proposeSubQuestions',
      'reviewProposal',
    ]);
    expect(waiting.steps.slice(0, -1).every((s) => s.outcome === 'done' && s.durationMs !== null)).toBe(true);
    expect(waiting.steps.at(-1)).toMatchObject({ outcome: 'interrupted', round: 1 });

    await call(client, REVIEW_DECOMPOSITION, {
      input: { requestId: first.requestId, accept: false, feedback: 'Fewer.' },
    });
    const second = await eventually(async () => {
      const question = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
      return question.requestId !== first.requestId ? question : null;
    }, 'a second proposal');
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: second.requestId, accept: true } });
    await waitForRun(client, map.id, run.id, ['COMPLETED']);

    const done = await call(client, RUN_PATH, { runId: run.id });
    expect(done.current).toBeNull();
    expect(done.steps.map((s) => `${s.step}#${s.round}`).slice(4)).toEqual([
      'proposeSubQuestions#1',
      'reviewProposal#1',
      'proposeSubQuestions#2',
      'reviewProposal#2',
      'createChildren#1',
    ]);
    expect(done.steps.every((s) => s.outcome === 'done')).toBe(true);
    // Each step's state: the decisions it recorded, what it asked and what the person replied.
    const at = (step: string, round = 1) => done.steps.find((s) => s.step === step && s.round === round)!;
    expect(at('recognizeIntent').decisions.map((d) => [d.kind, d.choice])).toEqual([
      ['INTENT', { intent: 'DECOMPOSE' }],
    ]);
    expect(at('decideStrategy').decisions[0]).toMatchObject({ kind: 'STRATEGY', reason: 'r', decidedBy: 'MODEL' });
    expect(at('reviewProposal').question).toBeTruthy();
    expect(at('reviewProposal').reply).toMatchObject({ action: 'reject', text: 'Fewer.' });
    expect(at('reviewProposal', 2).reply).toMatchObject({ action: 'approve', text: null });
    expect(at('collectContext').context).toEqual([]); // tool steps carry no context

    const bob = server.connect(server.bob.token).client;
    expect(await attempt(bob, RUN_PATH, { runId: run.id })).toMatchObject({ __typename: 'ForbiddenError' });
  });

  it("should show a conclusion's feedback loop as two rounds, each with its context, draft and the person's reply", async () => {
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, { input: { title: 'Open a café?' } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'Open a café?' } });
    const budget = await call(client, ADD_CONTEXT_ITEM, {
      nodeId: root.id,
      title: 'Budget',
      content: `${'€'.repeat(600)} at most`,
    });
    const run = await call(client, PROCESS_NODE, { nodeId: root.id, intent: 'CONCLUDE' });
    const first = await waitForQuestion(client, map.id, { kind: 'review-conclusion' });
    const drafted = await call(client, RUN_PATH, { runId: run.id });
    expect(drafted.current).toBe('reviewConclusion');
    const draft1 = drafted.steps.find((s) => s.step === 'draftConclusion')!;
    // The draft is the step's answer, cut to a bound; the context it used is the node's, cut too.
    expect(draft1.answer).toMatch(/^Draft 1: a long answer/);
    expect([...draft1.answer!].length).toBeLessThanOrEqual(1200);
    expect(draft1.answer!.endsWith('…')).toBe(true);
    expect(draft1.context).toContainEqual({ source: 'CONTEXT_ITEM', title: 'Budget', excerpt: expect.any(String) });
    expect([...draft1.context.find((c) => c.title === 'Budget')!.excerpt].length).toBeLessThanOrEqual(240);
    expect(drafted.steps.at(-1)).toMatchObject({ step: 'reviewConclusion', round: 1, reply: null });
    expect(drafted.steps.at(-1)!.question).toMatch(/conclusion/i);

    await call(client, REPLY_TO_AGENT, { input: { requestId: first.requestId, text: 'Shorter, please.' } });
    const second = await eventually(async () => {
      const question = await waitForQuestion(client, map.id, { kind: 'review-conclusion' });
      return question.requestId !== first.requestId ? question : null;
    }, 'a second draft');
    // The current step follows the events: the run waits in the loop's second round.
    const looping = await call(client, RUN_PATH, { runId: run.id });
    expect(looping.current).toBe('reviewConclusion');
    expect(looping.steps.at(-1)).toMatchObject({ step: 'reviewConclusion', round: 2, reply: null });

    await call(client, REPLY_TO_AGENT, { input: { requestId: second.requestId, accept: true } });
    await waitForRun(client, map.id, run.id, ['COMPLETED']);
    const done = await call(client, RUN_PATH, { runId: run.id });
    expect(done.current).toBeNull();
    expect(done.steps.map((s) => `${s.step}#${s.round}`).slice(3)).toEqual([
      'draftConclusion#1',
      'reviewConclusion#1',
      'draftConclusion#2',
      'reviewConclusion#2',
      'saveConclusion#1',
    ]);
    const at = (step: string, round: number) => done.steps.find((s) => s.step === step && s.round === round)!;
    expect(at('reviewConclusion', 1).reply).toMatchObject({ action: 'revise', text: 'Shorter, please.' });
    expect(at('reviewConclusion', 1).reply!.answeredAt).toBeTruthy();
    expect(at('draftConclusion', 2).answer).toBe('Draft 2: short.');
    expect(at('reviewConclusion', 2).reply).toMatchObject({ action: 'accept', text: null });
    expect(at('recognizeIntent', 1).decisions[0]).toMatchObject({ kind: 'INTENT', decidedBy: 'PERSON' });

    // Each step's context is what the agent held at that step (its checkpoint), not what the node holds now: a
    // context item removed since still shows where the agent had it, and one added since shows nowhere.
    await call(client, REMOVE_CONTEXT_ITEM, { id: budget.id });
    await call(client, ADD_CONTEXT_ITEM, { nodeId: root.id, title: 'Rent', content: 'Found a cheaper place.' });
    const later = await call(client, RUN_PATH, { runId: run.id });
    const titles = (step: string, round: number) =>
      later.steps.find((s) => s.step === step && s.round === round)!.context.map((c) => c.title);
    for (const round of [1, 2]) expect(titles('draftConclusion', round)).toEqual(['Budget']);
    expect(titles('recognizeIntent', 1)).toEqual(['Budget']);
  });
});
