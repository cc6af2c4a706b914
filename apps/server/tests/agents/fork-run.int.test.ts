import {
  ADD_CONTEXT_ITEM,
  CANCEL_RUN,
  FORK_RUN,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
  RUN_PATH,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../src/runs/run-path.ts';
import { eventually, waitForQuestion, waitForRun } from '../helpers/agent-driver.ts';
import { snapshot } from '../helpers/db-snapshot.ts';
import { manualMapWithRoot } from '../helpers/map-builder.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

describe.each(providers)('forking a run from one of its steps on %s', (provider) => {
  let server: TestServer;
  let client: Client;
  let proposals = 0;
  /** The prompts the conclusion agent was given, in order. */
  const draftPrompts: string[] = [];

  beforeAll(async () => {
    const model = await startScriptedModel({
      intent_decision: () => ({ intent: 'DECOMPOSE', reason: 'broad', confidence: 0.9 }),
      conclusion_draft: (prompt) => {
        draftPrompts.push(prompt);
        return { kind: 'DECISION', conclusion: 'Yes, an hour a day.', keyPoints: ['daily'], confidence: 0.8 };
      },
      strategy_decision: () => ({ strategy: 'PARALLEL', factors: [{ factor: 'f', assessment: 'a' }], reason: 'r' }),
      // The first proposal (the original run's) and the next ones (its forks') differ, so the test can tell them apart.
      sub_question_proposal: () =>
        ++proposals === 1
          ? {
              rationale: 'by place',
              subQuestions: [
                { key: 'a', question: 'Where?', goal: 'a site', dependsOn: [] },
                { key: 'b', question: 'For whom?', goal: 'customers', dependsOn: [] },
              ],
            }
          : {
              rationale: 'step by step',
              subQuestions: [
                { key: 'c', question: 'What does it cost?', goal: 'a budget', dependsOn: [] },
                { key: 'd', question: 'Is it worth it?', goal: 'a yes or no', dependsOn: ['c'] },
              ],
            },
    });
    // A window of 2 finished runs per map: the original's checkpoints are pruned once two newer runs ended.
    server = await startTestServer(provider!, { model: model.model, runSettings: { checkpointWindow: 2 } });
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server.close());

  const children = async (nodeId: string) =>
    (await server.db.read.node.findMany({ where: { parentId: nodeId }, orderBy: { position: 'asc' } })).map(
      (n) => n.question,
    );

  it('should re-run from the strategy with another one, keep the original until the person approves, then replace it', async () => {
    const { mapId, rootId } = await manualMapWithRoot(client, 'Open a bakery?');
    const map = { id: mapId };
    const root = { id: rootId };

    const original = await call(client, PROCESS_NODE, { nodeId: root.id });
    const review = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: review.requestId, accept: true } });
    await waitForRun(client, map.id, original.id, ['COMPLETED']);
    expect(await children(root.id)).toEqual(['Where?', 'For whom?']);
    // Its path says a fork can start from it, and gives the review step's proposal (what a fork from it edits).
    const kept = await call(client, RUN_PATH, { runId: original.id });
    expect(kept).toMatchObject({ __typename: 'RunPath', checkpointsKept: true });
    const reviewed = 'steps' in kept ? kept.steps.find((s) => s.step === 'reviewProposal') : undefined;
    expect(reviewed?.proposal?.map((s) => s.question)).toEqual(['Where?', 'For whom?']);
    expect('steps' in kept && kept.steps.filter((s) => s.proposal !== null).map((s) => s.step)).toEqual([
      'reviewProposal',
    ]);

    // Bad input is refused and changes nothing: a step the run never took, a step that cannot be forked, a change
    // the step does not take, a run that does not exist.
    const before = await snapshot(server.db);
    const refusals: [{ runId: string; step: string; feedback?: string; subQuestions?: never[] }, string][] = [
      [{ runId: original.id, step: 'draftConclusion', feedback: 'shorter' }, 'NotFoundError'],
      [{ runId: original.id, step: 'collectContext' }, 'ValidationError'],
      [{ runId: original.id, step: 'decideStrategy', feedback: 'more' }, 'ValidationError'],
      [{ runId: original.id, step: 'reviewProposal', subQuestions: [] }, 'ValidationError'],
      [{ runId: 'c000000000000000000000000', step: 'decideStrategy' }, 'NotFoundError'],
    ];
    for (const [input, typename] of refusals)
      expect(await attempt(client, FORK_RUN, { input }), JSON.stringify(input)).toMatchObject({ __typename: typename });
    expect(await snapshot(server.db)).toBe(before);

    const fork = await call(client, FORK_RUN, {
      input: { runId: original.id, step: 'decideStrategy', strategy: 'SEQUENTIAL' },
    });
    expect(fork).toMatchObject({ forkedFromRunId: original.id, forkedFromStep: 'decideStrategy', nodeId: root.id });
    const forkReview = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    expect(forkReview.runId).toBe(fork.id);
    const context = forkReview.context as { strategy: { strategy: string }; proposal: { rationale: string } };
    expect(context.strategy.strategy).toBe('SEQUENTIAL');
    expect(context.proposal.rationale).toBe('step by step');
    // The fork started from the original's checkpoint: it did not ask for the intent again (one intent call).
    const intents = await server.db.read.decision.count({ where: { runId: fork.id, kind: 'INTENT' } });
    expect(intents).toBe(0);
    // And from the one its decideStrategy step started from, not the run's last: the fork's thread begins with a
    // copy of it, and its own decideStrategy step started from the person's change written on that copy.
    const originalRow = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: original.id } });
    const strategyStep = (await runPath(server.db.read, originalRow, new Set())).steps.find(
      (s) => s.step === 'decideStrategy',
    );
    expect(strategyStep?.checkpointId).toBeTruthy();
    const forkRow = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: fork.id } });
    const copied = await server.db.read.checkpoint.findFirstOrThrow({
      where: { threadId: forkRow.threadId },
      orderBy: { checkpointId: 'asc' },
    });
    expect(copied.checkpointId).toBe(strategyStep!.checkpointId);
    const forkPath = await runPath(server.db.read, forkRow, new Set());
    expect(forkPath.steps.map((s) => [s.step, s.checkpointId !== null])).toEqual([
      ['decideStrategy', true],
      ['proposeSubQuestions', true],
      ['reviewProposal', true],
    ]);
    // Until the person approves, the original's sub-questions stay.
    expect(await children(root.id)).toEqual(['Where?', 'For whom?']);

    // A second fork while this one waits on the node is refused: one run per node.
    const busy = await attempt(client, FORK_RUN, { input: { runId: original.id, step: 'decideStrategy' } });
    expect(busy).toMatchObject({ __typename: 'ConflictError' });

    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: forkReview.requestId, accept: true } });
    await waitForRun(client, map.id, fork.id, ['COMPLETED']);
    expect(await children(root.id)).toEqual(['What does it cost?', 'Is it worth it?']);
    const originalRun = await server.db.read.agentRun.findUniqueOrThrow({
      where: { id: original.id },
      include: { forks: true },
    });
    expect(originalRun.forks.map((r) => r.id)).toEqual([fork.id]);

    // Feedback to the proposal of the fork: another fork, from its proposal step; then a third run ends and the
    // original (now beyond the window of 2) can no longer be forked.
    const again = await call(client, FORK_RUN, {
      input: { runId: fork.id, step: 'proposeSubQuestions', feedback: 'fewer, please' },
    });
    const againReview = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    expect(againReview.runId).toBe(again.id);
    await call(client, REVIEW_DECOMPOSITION, {
      input: { requestId: againReview.requestId, accept: false, feedback: 'no' },
    });
    const third = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    expect(third.runId).toBe(again.id);
    const edited = [{ key: 'e', question: 'Who bakes?', goal: 'a baker', dependsOn: [] }];
    await call(client, REVIEW_DECOMPOSITION, {
      input: { requestId: third.requestId, accept: true, subQuestions: edited },
    });
    await waitForRun(client, map.id, again.id, ['COMPLETED']);
    expect(await children(root.id)).toEqual(['Who bakes?']);
    const pruned = await attempt(client, FORK_RUN, { input: { runId: original.id, step: 'decideStrategy' } });
    expect(pruned).toMatchObject({ __typename: 'ValidationError', message: expect.stringContaining('no longer kept') });
    // Its path says so too, so the web offers no fork of it.
    expect(await call(client, RUN_PATH, { runId: original.id })).toMatchObject({ checkpointsKept: false });
  });

  it('should fork from the review with edited sub-questions, and from the intent with another intent', async () => {
    const { mapId, rootId } = await manualMapWithRoot(client, 'Learn Mandarin?');
    const original = await call(client, PROCESS_NODE, { nodeId: rootId });
    const review = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    await call(client, REVIEW_DECOMPOSITION, {
      input: { requestId: review.requestId, accept: false, feedback: 'too vague' },
    });
    const again = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    expect(again.runId).toBe(original.id);
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: again.requestId, accept: true } });
    await waitForRun(client, mapId, original.id, ['COMPLETED']);

    // From the review, with the proposal edited: the fork asks the person to review exactly that, at once.
    const edited = [
      { key: 'x', question: 'How many hours a week?', goal: 'a schedule', dependsOn: [] },
      { key: 'y', question: 'Which course?', goal: 'a course', dependsOn: ['x'] },
    ];
    const calls = proposals;
    const fromReview = await call(client, FORK_RUN, {
      input: { runId: original.id, step: 'reviewProposal', subQuestions: edited },
    });
    const forkReview = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    expect(forkReview.runId).toBe(fromReview.id);
    const proposal = (forkReview.context as { proposal: { subQuestions: { question: string }[] } }).proposal;
    expect(proposal.subQuestions.map((q) => q.question)).toEqual(['How many hours a week?', 'Which course?']);
    expect(proposals).toBe(calls);
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: forkReview.requestId, accept: true } });
    await waitForRun(client, mapId, fromReview.id, ['COMPLETED']);
    expect(await children(rootId)).toEqual(['How many hours a week?', 'Which course?']);

    // A fork only re-runs steps it took itself: this one started at the review.
    const notTaken = await attempt(client, FORK_RUN, {
      input: { runId: fromReview.id, step: 'recognizeIntent', intent: 'CONCLUDE' },
    });
    expect(notTaken).toMatchObject({ __typename: 'NotFoundError' });
    // From the original's intent, to conclude instead: a draft for the person; the sub-questions stay meanwhile.
    const conclude = await call(client, FORK_RUN, {
      input: { runId: original.id, step: 'recognizeIntent', intent: 'CONCLUDE' },
    });
    const draft = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    expect(draft.runId).toBe(conclude.id);
    const intent = await server.db.read.decision.findFirstOrThrow({ where: { runId: conclude.id, kind: 'INTENT' } });
    expect(intent).toMatchObject({ decidedBy: 'PERSON' });
    expect(await children(rootId)).toEqual(['How many hours a week?', 'Which course?']);
  });

  it("should fork a loop's first round from that round's state, not the run's last", async () => {
    const { mapId, rootId } = await manualMapWithRoot(client, 'Learn to swim?');
    const original = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CONCLUDE' });
    // Two rounds of feedback, then the third draft is accepted.
    let asked = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    for (const feedback of ['First feedback: cheaper.', 'Second feedback: sooner.']) {
      await call(client, REPLY_TO_AGENT, { input: { requestId: asked.requestId, text: feedback } });
      const previous = asked.requestId;
      asked = await eventually(async () => {
        const next = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
        return next.requestId !== previous ? next : null;
      }, 'the next draft');
    }
    expect((asked.context as { round: number }).round).toBe(3);
    await call(client, REPLY_TO_AGENT, { input: { requestId: asked.requestId, accept: true } });
    await waitForRun(client, mapId, original.id, ['COMPLETED']);
    // Added after the run: the fork does not see it, as the first round did not.
    await call(client, ADD_CONTEXT_ITEM, { nodeId: rootId, title: 'Pool', content: 'A pool opened nearby.' });

    const drafted = draftPrompts.length;
    const fork = await call(client, FORK_RUN, {
      input: { runId: original.id, step: 'draftConclusion', round: 1, feedback: 'Third try: with a coach.' },
    });
    const forkDraft = await waitForQuestion(client, mapId, { kind: 'review-conclusion' });
    expect(forkDraft.runId).toBe(fork.id);
    // The first round's state: its first draft again (not a fourth), with the person's new feedback only.
    expect((forkDraft.context as { round: number }).round).toBe(1);
    const prompt = draftPrompts.slice(drafted).join('\n');
    expect(prompt).toContain('Third try: with a coach.');
    expect(prompt).not.toContain('Second feedback');
    expect(prompt).not.toContain('A pool opened nearby.');
    // A round the step never had is not found.
    const missing = await attempt(client, FORK_RUN, {
      input: { runId: original.id, step: 'draftConclusion', round: 4, feedback: 'again' },
    });
    expect(missing).toMatchObject({ __typename: 'NotFoundError' });
    await call(client, CANCEL_RUN, { runId: fork.id });
    await waitForRun(client, mapId, fork.id, ['CANCELLED']);
  });

  it('should refuse to fork a run that has not ended', async () => {
    const { mapId, rootId } = await manualMapWithRoot(client, 'Move to Lisbon?');
    const map = { id: mapId };
    const root = { id: rootId };
    const run = await call(client, PROCESS_NODE, { nodeId: root.id });
    await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    const before = await snapshot(server.db);
    const refused = await attempt(client, FORK_RUN, { input: { runId: run.id, step: 'decideStrategy' } });
    expect(refused).toMatchObject({ __typename: 'ConflictError', message: expect.stringContaining('has not ended') });
    expect(await snapshot(server.db)).toBe(before);
    // A cancelled run keeps no checkpoints: the refusal says so.
    await call(client, CANCEL_RUN, { runId: run.id });
    await waitForRun(client, map.id, run.id, ['CANCELLED']);
    const cancelled = await attempt(client, FORK_RUN, { input: { runId: run.id, step: 'decideStrategy' } });
    expect(cancelled).toMatchObject({ __typename: 'ValidationError', message: expect.stringContaining('cancelled') });
  });
});
