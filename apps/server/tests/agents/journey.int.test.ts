import { CREATE_MAP, MAP, NODE, PROCESS_NODE, REPLY_TO_AGENT, REVIEW_DECOMPOSITION, RUNS } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForNodeStatus, waitForQuestion } from '../helpers/agent-driver.ts';
import { collectOverWebSocket } from '../helpers/event-collector.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

/** A model that behaves like a cooperative LLM for the café journey, decided by the schema each agent asks for. */
function cafeScript() {
  const intentCalls = new Map<string, number>();
  return {
    problem_understanding: (prompt: string) =>
      prompt.includes('两家店')
        ? {
            title: '开第二家咖啡店',
            problem: '是否在明年开第二家咖啡店（两家店一起经营）',
            goal: '在六月前做出决定',
            constraints: ['预算 50 万'],
          }
        : { title: '开咖啡店', problem: '是否开一家咖啡店', goal: '做出决定', constraints: [] },
    intent_decision: (prompt: string) => {
      // The site node's context names the market node it depends on: test for it first.
      const node = prompt.includes('选址') ? 'site' : prompt.includes('咖啡市场') ? 'market' : 'root';
      const n = (intentCalls.get(node) ?? 0) + 1;
      intentCalls.set(node, n);
      const intent = node === 'root' ? 'DECOMPOSE' : node === 'market' && n === 1 ? 'CLARIFY' : 'CONCLUDE';
      return { intent, reason: `因为 ${intent}`, confidence: 0.8 };
    },
    strategy_decision: () => ({
      strategy: 'SEQUENTIAL',
      factors: [{ factor: '依赖', assessment: '选址依赖市场规模' }],
      reason: '先市场后选址',
    }),
    sub_question_proposal: () => ({
      rationale: '先看市场再选址',
      subQuestions: [
        { key: 'q1', question: '市场有多大？', goal: '估算规模', dependsOn: [] },
        { key: 'q2', question: '选址在哪里？', goal: '选一个地点', dependsOn: ['q1'] },
      ],
    }),
    clarify_question: () => ({ question: '你的预算上限是多少？', why: '市场规模的估算取决于能投入多少' }),
    conclusion_draft: (_prompt: string, call: number) => {
      const text =
        ['市场足够大：每天约 3000 杯。', '选在大学城。', '开第二家店，选在大学城。'][call - 1] ?? '（多余的草稿）';
      return { kind: 'DECISION', conclusion: text, keyPoints: [text], confidence: 0.8 };
    },
  };
}

describe.each(providers)('the whole journey with agents on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;

  beforeAll(async () => {
    model = await startScriptedModel(cafeScript());
    server = await startTestServer(provider, { model: model.model });
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it('should go from a problem to a concluded map with the person in the loop at every step', async () => {
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, { input: { problem: '我想开一家咖啡店，值得吗？' } });
    expect(map).toMatchObject({ __typename: 'Map', title: '我想开一家咖啡店，值得吗？', language: 'zh' });
    const events = collectOverWebSocket(server.connect(server.alice.token).client, map.id, 0);

    // Problem understanding: correct once, then confirm.
    let question = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
    expect(JSON.stringify(question.context)).toContain('咖啡店');
    expect(
      (
        await call(client, REPLY_TO_AGENT, {
          input: { requestId: question.requestId, text: '其实是开第二家，两家店一起经营' },
        })
      ).__typename,
    ).toBe('AgentRun');
    const corrected = await eventually(async () => {
      const q = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
      return q.requestId !== question.requestId ? q : null;
    }, 'the corrected restatement');
    expect(JSON.stringify(corrected.context)).toContain('第二家');
    await call(client, REPLY_TO_AGENT, { input: { requestId: corrected.requestId, accept: true } });
    const root = await eventually(async () => {
      const m = await call(client, MAP, { id: map.id });
      return m.nodes.length === 1 ? m.nodes[0] : null;
    }, 'the root node');
    const understood = await call(client, MAP, { id: map.id });
    expect(understood).toMatchObject({ goal: '在六月前做出决定', constraints: ['预算 50 万'] });

    // Process the root: decompose, approve with one edit.
    const rootRun = await call(client, PROCESS_NODE, { nodeId: root.id });
    expect(rootRun).toMatchObject({ __typename: 'AgentRun', status: 'RUNNING', nodeId: root.id });
    question = await waitForQuestion(client, map.id, { kind: 'review-decomposition', nodeId: root.id });
    expect((await call(client, MAP, { id: map.id })).nodes).toHaveLength(1);
    const { proposal } = question.context as { proposal?: { subQuestions?: unknown[] } };
    expect(proposal?.subQuestions).toHaveLength(2);
    // Edits the run could not carry out are refused while the question keeps waiting; nothing changes.
    for (const [bad, field] of [
      [{ key: 'q1', question: '太长'.repeat(501), goal: '估算规模', dependsOn: [] }, 'reply.subQuestions.0.question'],
      [{ key: 'q1', question: '   ', goal: '估算规模', dependsOn: [] }, 'reply.subQuestions.0.question'],
    ] as const) {
      const refused = await attempt(client, REVIEW_DECOMPOSITION, {
        input: { requestId: question.requestId, accept: true, subQuestions: [{ ...bad, dependsOn: [] }] },
      });
      expect(refused).toMatchObject({ __typename: 'ValidationError', field });
    }
    const twice = await attempt(client, REVIEW_DECOMPOSITION, {
      input: {
        requestId: question.requestId,
        accept: true,
        subQuestions: [
          { key: 'q1', question: '市场？', goal: '规模', dependsOn: [] },
          { key: 'q1', question: '选址？', goal: '地点', dependsOn: [] },
        ],
      },
    });
    expect(twice).toMatchObject({ __typename: 'ValidationError', field: 'reply.subQuestions.1.key' });
    expect((await call(client, MAP, { id: map.id })).nodes).toHaveLength(1);
    await call(client, REVIEW_DECOMPOSITION, {
      input: {
        requestId: question.requestId,
        accept: true,
        subQuestions: [
          { key: 'q1', question: '本地咖啡市场有多大？', goal: '估算规模', dependsOn: [] },
          { key: 'q2', question: '选址在哪里？', goal: '选一个地点', dependsOn: ['q1'] },
        ],
      },
    });
    const children = await eventually(async () => {
      const node = await call(client, NODE, { id: root.id });
      return node.children.length === 2 ? node.children : null;
    }, 'the approved children');
    const [market, site] = children;
    expect(market!.question).toBe('本地咖啡市场有多大？');
    expect((await waitForNodeStatus(client, site!.id, 'BLOCKED')).readiness.openDependencies[0]?.id).toBe(market!.id);

    // The market node asks a question first; the test answers it; then the conclusion is accepted.
    await call(client, PROCESS_NODE, { nodeId: market!.id });
    question = await waitForQuestion(client, map.id, { kind: 'clarify', nodeId: market!.id });
    expect(question.question).toContain('预算');
    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, text: '上限 50 万元' } });
    question = await waitForQuestion(client, map.id, { kind: 'review-conclusion', nodeId: market!.id });
    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
    await waitForNodeStatus(client, market!.id, 'COMPLETED');

    // The site node is now ready; conclude it. The root then concludes by itself (bottom-up).
    await waitForNodeStatus(client, site!.id, 'READY');
    await call(client, PROCESS_NODE, { nodeId: site!.id });
    question = await waitForQuestion(client, map.id, { kind: 'review-conclusion', nodeId: site!.id });
    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
    question = await waitForQuestion(client, map.id, { kind: 'review-conclusion', nodeId: root.id });
    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
    const done = await waitForNodeStatus(client, root.id, 'COMPLETED');
    expect(done.conclusion).toBe('开第二家店，选在大学城。');
    expect((await call(client, MAP, { id: map.id })).status).toBe('COMPLETED');

    // Every run finished, with token usage recorded; every step was an event, in order.
    await server.app.engine.idle();
    const runs = (await call(client, RUNS, { mapId: map.id })).data as { status: string; promptTokens: number }[];
    expect(runs.map((r) => r.status)).toEqual(Array(runs.length).fill('COMPLETED'));
    expect(runs.every((r) => r.promptTokens > 0)).toBe(true);
    const received = await events.waitFor(1);
    await eventually(
      async () =>
        events.events.at(-1)?.__typename === 'RunFinished' && events.events.some((e) => e.__typename === 'MapUpdated'),
      'the last events',
    );
    const seqs = events.events.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const types = new Set<string>(events.events.map((e) => e.__typename));
    for (const type of [
      'RunStarted',
      'AgentStep',
      'AgentQuestion',
      'QuestionResolved',
      'AgentTokens',
      'NodeCreated',
      'DependencyAdded',
      'NodeConcluded',
      'RunFinished',
    ]) {
      expect(types.has(type), type).toBe(true);
    }
    // Streamed text reads as the person will read it: the draft's words, never the model's raw JSON.
    const rootTokens = events.events
      .filter((e) => e.__typename === 'AgentTokens')
      .filter((e) => e.nodeId === root.id)
      .map((e) => e.text)
      .join('');
    expect(rootTokens).toContain('开第二家店，选在大学城。');
    expect(rootTokens).not.toMatch(/[{}]|"conclusion"/);
    const steps = events.events
      .filter((e) => e.__typename === 'AgentStep')
      .filter((e) => e.nodeId === root.id && e.phase === 'ENTERED')
      .map((e) => e.step);
    expect(steps.slice(0, 5)).toEqual([
      'collectContext',
      'checkDependencies',
      'recognizeIntent',
      'decideStrategy',
      'proposeSubQuestions',
    ]);
    expect(received).toHaveLength(1);
    events.stop();
  });
});
