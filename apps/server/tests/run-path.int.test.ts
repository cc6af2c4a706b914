import { CREATE_MAP, CREATE_NODE, PROCESS_NODE, REVIEW_DECOMPOSITION, RUN_PATH, UPDATE_MAP } from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForQuestion, waitForRun } from './helpers/agent-driver.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const [provider] = await testProviders();

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

    const bob = server.connect(server.bob.token).client;
    expect(await attempt(bob, RUN_PATH, { runId: run.id })).toMatchObject({ __typename: 'ForbiddenError' });
  });
});
