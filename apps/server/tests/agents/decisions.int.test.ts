import {
  CREATE_MAP,
  CREATE_NODE,
  EVENTS,
  graphql,
  NODE_DECISIONS,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
  SET_CONCLUSION,
  UPDATE_MAP,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForNodeStatus, waitForQuestion, waitForRun } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

/** A run's decisions, with a literal argument-free selection and aliases, as another client would read them. */
const RUN_WITH_DECISIONS = graphql(`
  query RunWithDecisions($mapId: ID!) {
    runs(mapId: $mapId) {
      __typename
      ... on QueryRunsSuccess {
        data {
          id
          nodeId
          decided: decisions {
            kind
            choice
            reason
            confidence
            by: decidedBy
            overridden
            runId
          }
        }
      }
    }
  }
`);

const proposal = {
  rationale: 'needs come before the first slice',
  subQuestions: [
    { key: 'a', question: 'What do users need?', goal: 'list needs', dependsOn: [] },
    { key: 'b', question: 'What do we build first?', goal: 'pick a slice', dependsOn: ['a'] },
  ],
};

describe.each(providers)('the decisions of runs on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let client: ReturnType<TestServer['connect']>['client'];

  beforeAll(async () => {
    let explored = 0;
    model = await startScriptedModel({
      // The root is decomposed; a node asked about "weather" is explored once, then concluded.
      intent_decision: (prompt) => {
        if (!prompt.includes('weather'))
          return { intent: 'DECOMPOSE', reason: 'too broad for one answer', confidence: 0.9 };
        explored++;
        return explored === 1
          ? { intent: 'EXPLORE', reason: 'it needs facts first', confidence: 0.4 }
          : { intent: 'CONCLUDE', reason: 'enough is known now', confidence: 0.85 };
      },
      strategy_decision: () => ({
        strategy: 'SEQUENTIAL',
        factors: [
          { factor: 'complexity', assessment: 'several stages' },
          { factor: 'sub-task potential', assessment: 'each stage stands alone' },
        ],
        reason: 'each stage needs the one before',
      }),
      sub_question_proposal: () => proposal,
      conclusion_draft: () => ({
        kind: 'ANALYTICAL',
        kindReason: 'it weighs what is known',
        conclusion: 'Go ahead.',
        keyPoints: ['known facts'],
        confidence: 0.6,
      }),
    });
    server = await startTestServer(provider, { model: model.model });
    client = server.connect(server.alice.token).client;
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  async function mapWithRoot(question: string) {
    const map = await call(client, CREATE_MAP, { input: { title: question } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question } });
    return { mapId: map.id as string, rootId: root.id as string };
  }

  it('should record every decision of a full run with its reasons, and the person’s edits over the model’s', async () => {
    const { mapId, rootId } = await mapWithRoot('Plan a product launch');
    const run = await call(client, PROCESS_NODE, { nodeId: rootId });
    const review = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
    // The person keeps the questions but drops the dependency: theirs is the decision, the model's is kept.
    const edited = proposal.subQuestions.map((q) => ({ ...q, dependsOn: [] }));
    await call(client, REVIEW_DECOMPOSITION, {
      input: { requestId: review.requestId, accept: true, subQuestions: edited },
    });
    await waitForRun(client, mapId, run.id, ['COMPLETED']);

    const runs = (await call(client, RUN_WITH_DECISIONS, { mapId })).data;
    const decided = runs.find((r) => r.id === run.id)!.decided;
    expect(decided.map((d) => [d.kind, d.by])).toEqual([
      ['INTENT', 'MODEL'],
      ['STRATEGY', 'MODEL'],
      ['SUB_QUESTIONS', 'MODEL'],
      ['DEPENDENCIES', 'PERSON'],
    ]);
    expect(decided.every((d) => d.runId === run.id)).toBe(true);
    expect(decided[0]).toMatchObject({
      choice: { intent: 'DECOMPOSE' },
      reason: 'too broad for one answer',
      confidence: 0.9,
      overridden: null,
    });
    expect(decided[1]).toMatchObject({
      choice: {
        strategy: 'SEQUENTIAL',
        factors: [
          { factor: 'complexity', assessment: 'several stages' },
          { factor: 'sub-task potential', assessment: 'each stage stands alone' },
        ],
      },
      reason: 'each stage needs the one before',
      confidence: null,
    });
    expect(decided[2]).toMatchObject({
      choice: { subQuestions: proposal.subQuestions.map(({ key, question, goal }) => ({ key, question, goal })) },
      reason: 'needs come before the first slice',
    });
    expect(decided[3]).toMatchObject({
      choice: { dependencies: [] },
      reason: 'chosen by the person',
      overridden: { dependencies: [{ question: 'What do we build first?', dependsOn: 'What do users need?' }] },
    });

    // The person overrides the intent and the kind of conclusion: each is theirs, over the model's choice.
    const redo = await call(client, PROCESS_NODE, { nodeId: rootId, intent: 'CONCLUDE', conclusionKind: 'DECISION' });
    const draft = await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: rootId });
    await call(client, REPLY_TO_AGENT, { input: { requestId: draft.requestId, accept: true } });
    await waitForRun(client, mapId, redo.id, ['COMPLETED']);
    const node = await call(client, NODE_DECISIONS, { id: rootId });
    const own = node.decisions.filter((d) => d.runId === redo.id);
    expect(own.map((d) => [d.kind, d.decidedBy, d.choice, d.overridden])).toEqual([
      ['INTENT', 'PERSON', { intent: 'CONCLUDE' }, { intent: 'DECOMPOSE' }],
      ['CONCLUSION_KIND', 'PERSON', { kind: 'DECISION' }, { kind: 'ANALYTICAL' }],
    ]);
    expect(own[0]!.reason).toBe('chosen by the person');
    // The node's decisions are both runs', oldest first; its intent history shows DECOMPOSE, then CONCLUDE.
    expect(node.decisions.map((d) => d.runId)).toEqual([...decided.map(() => run.id), redo.id, redo.id]);
    const history = await call(client, NODE_DECISIONS, { id: rootId, kind: 'INTENT' });
    expect(history.decisions.map((d) => d.choice)).toEqual([{ intent: 'DECOMPOSE' }, { intent: 'CONCLUDE' }]);
    expect(history.intent).toBe('CONCLUDE');
  });

  it('should keep the intent history of one run: EXPLORE, then CONCLUDE, with the model’s kind of conclusion', async () => {
    const { mapId, rootId } = await mapWithRoot('Will the weather hold for the fair?');
    const run = await call(client, PROCESS_NODE, { nodeId: rootId });
    const draft = await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: rootId });
    await call(client, REPLY_TO_AGENT, { input: { requestId: draft.requestId, accept: true } });
    await waitForRun(client, mapId, run.id, ['COMPLETED']);
    const node = await call(client, NODE_DECISIONS, { id: rootId });
    expect(node.decisions.map((d) => [d.kind, d.choice, d.reason, d.confidence, d.decidedBy])).toEqual([
      ['INTENT', { intent: 'EXPLORE' }, 'it needs facts first', 0.4, 'MODEL'],
      ['INTENT', { intent: 'CONCLUDE' }, 'enough is known now', 0.85, 'MODEL'],
      ['CONCLUSION_KIND', { kind: 'ANALYTICAL' }, 'it weighs what is known', 0.6, 'MODEL'],
    ]);
    expect(node.intent).toBe('CONCLUDE');

    // Every decision is on the map's feed as DecisionRecorded, and replays from the log as recorded.
    const events = (await call(client, EVENTS, { mapId, first: 1000 })).events;
    const recorded = events.flatMap((e) => (e.__typename === 'DecisionRecorded' ? [e] : []));
    expect(recorded.map((e) => e.decision)).toEqual(node.decisions);
    expect(recorded.every((e) => e.runId === run.id && e.nodeId === rootId)).toBe(true);
  });

  it('should record that a bottom-up conclusion started by itself, and why', async () => {
    const map = await call(client, CREATE_MAP, { input: { title: 'Open a café', language: 'zh' } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: '开一家咖啡馆' } });
    const child = await call(client, CREATE_NODE, {
      input: { mapId: map.id, parentId: root.id, question: '选址在哪里？' },
    });
    await call(client, SET_CONCLUSION, { input: { nodeId: child.id, conclusion: '大学城。' } });
    const draft = await waitForQuestion(client, map.id, { kind: 'review-conclusion', nodeId: root.id });
    const decisions = (await call(client, RUN_WITH_DECISIONS, { mapId: map.id })).data.find(
      (r) => r.id === draft.runId,
    )!.decided;
    expect(decisions[0]).toMatchObject({
      kind: 'AUTO_START',
      by: 'SYSTEM',
      choice: { trigger: 'BOTTOM_UP' },
      reason: '这个问题的所有子问题都已得出结论，因此起草它的结论供你审阅',
    });
    expect(decisions[1]).toMatchObject({ kind: 'INTENT', by: 'PERSON', choice: { intent: 'CONCLUDE' } });
    await call(client, REPLY_TO_AGENT, { input: { requestId: draft.requestId, accept: true } });
    await waitForNodeStatus(client, root.id, 'COMPLETED');
  });
});
