import { REFUSE_ALL, type Refusals, refusalOf } from '@thinkingmap/agent-core/testing';
import {
  AGENT_MODEL,
  CONSULTATION,
  CREATE_MAP,
  MAP,
  NODE,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  RUNS,
  SEND_CONSULTATION_MESSAGE,
  START_CONSULTATION,
  START_DIVERGENT,
} from '@thinkingmap/client';
import { describe, expect, it } from 'vitest';
import { rootOf, scored, task, waitForSessionStatus } from '../divergent/divergent-helpers.ts';
import { eventually, waitForNodeStatus, waitForQuestion } from '../helpers/agent-driver.ts';
import { type SchemaAnswer, startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

type Client = ReturnType<TestServer['connect']>['client'];

/** A cooperative model for every agent of the flow, decided by the schema each asks for. */
function flowScript(): Record<string, SchemaAnswer> {
  return {
    problem_understanding: () => ({
      title: '开咖啡店',
      problem: '是否开一家咖啡店',
      goal: '做出决定',
      constraints: [],
    }),
    intent_decision: (prompt) => ({
      intent: prompt.includes('市场有多大') ? 'CONCLUDE' : 'DECOMPOSE',
      reason: '按问题大小',
      confidence: 0.8,
    }),
    strategy_decision: () => ({
      strategy: 'SEQUENTIAL',
      factors: [{ factor: '规模', assessment: '只有一个子问题' }],
      reason: '只有一个子问题',
    }),
    sub_question_proposal: () => ({
      rationale: '先看市场',
      subQuestions: [{ key: 'q1', question: '市场有多大？', goal: '估算规模', dependsOn: [] }],
    }),
    conclusion_draft: (_prompt, n) => {
      const text = n === 1 ? '市场足够大。' : '值得开。';
      return { kind: 'DECISION', conclusion: text, keyPoints: [text], confidence: 0.8 };
    },
    divergent_plan: () => ({ rationale: 'one look', tasks: [task('market')] }),
    completion_evaluation: () => scored(0.95),
    text: (prompt) => {
      if (/summary agent|总结 Agent/.test(prompt)) return { content: 'summary', chunkSize: 8 };
      if (/final output of a divergent|最终输出/.test(prompt)) return { content: '# Final\nSee [L1.T1].' };
      return { content: 'result of market', chunkSize: 8 };
    },
    front_reply: () => ({ reply: '好的，我来帮你。', route: 'plan' }),
    planner_decision: () => ({ next: 'FINISH', askUser: null, record: null, note: null }),
  };
}

/** Understanding, confirmation, a decomposition proposal approved, two conclusions accepted. */
async function understandDecomposeConclude(client: Client) {
  const map = await call(client, CREATE_MAP, { input: { problem: '我想开一家咖啡店，值得吗？' } });
  let question = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
  await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
  const root = await eventually(async () => (await call(client, MAP, { id: map.id })).nodes[0], 'the root node');
  await call(client, PROCESS_NODE, { nodeId: root.id });
  question = await waitForQuestion(client, map.id, { kind: 'review-decomposition', nodeId: root.id });
  await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
  const [child] = await eventually(async () => {
    const node = await call(client, NODE, { id: root.id });
    return node.children.length === 1 && node.children;
  }, 'the approved child');
  await call(client, PROCESS_NODE, { nodeId: child!.id });
  for (const nodeId of [child!.id, root.id]) {
    question = await waitForQuestion(client, map.id, { kind: 'review-conclusion', nodeId });
    await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
  }
  expect((await waitForNodeStatus(client, root.id, 'COMPLETED')).conclusion).toBe('值得开。');
  return map.id as string;
}

/** One divergent level that reaches the threshold, on a map of its own. */
async function divergentLevel(client: Client) {
  const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
  const started = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
  await waitForSessionStatus(client, started.id, 'COMPLETED');
  return mapId;
}

/** One consultation turn on `mapId`: the front agent's reply, then the planner. */
async function consultationTurn(client: Client, mapId: string) {
  const { id } = await call(client, START_CONSULTATION, { input: { mapId } });
  await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: '帮我看看租金' } });
  return eventually(async () => {
    const c = await call(client, CONSULTATION, { id });
    return !c.busy && c.messages.length >= 2 && c;
  }, 'the consultation turn');
}

const CASES: [string, Refusals, object][] = [
  ['nothing', {}, { structuredOutput: 'json_schema', streamUsage: 'reported' }],
  ['json_schema', { responseFormat: 'json_schema' }, { structuredOutput: 'json_object', streamUsage: 'reported' }],
  ['stream_options', { streamOptions: true }, { structuredOutput: 'json_schema', streamUsage: 'estimated' }],
  ['tool_choice', { toolChoice: true }, { structuredOutput: 'json_schema', streamUsage: 'reported' }],
  ['everything', REFUSE_ALL, { structuredOutput: 'prompt', streamUsage: 'estimated' }],
];

// The flow runs against a scripted model on the embedded SQLite only: what differs between the cases is the
// endpoint, not the database. The cases run side by side, each with its own endpoint and server.
describe.concurrent('the whole flow on an OpenAI-compatible endpoint that refuses', { timeout: 120_000 }, () => {
  it.each(CASES)('%s', async (_name, refuse, found) => {
    const model = await startScriptedModel(flowScript(), { refuse, timeoutMs: 20_000 });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const mapId = await understandDecomposeConclude(client);
      const divergentMapId = await divergentLevel(client);
      const consultation = await consultationTurn(client, mapId);
      expect(consultation.messages.map((m) => m.text)).toEqual(['帮我看看租金', '好的，我来帮你。']);
      expect(consultation).toMatchObject({ failureCode: null, failureReason: null });

      await server.app.engine.idle();
      const runs = [
        ...(await call(client, RUNS, { mapId })).data,
        ...(await call(client, RUNS, { mapId: divergentMapId })).data,
      ];
      expect(runs.map((r) => r.status)).toEqual(runs.map(() => 'COMPLETED'));
      expect(runs.every((r) => r.promptTokens > 0 && r.completionTokens > 0)).toBe(true);
      // Counted locally exactly where the endpoint streamed without usage.
      const estimating = Boolean(refuse.streamOptions);
      expect(runs.some((r) => r.tokensEstimated)).toBe(estimating);
      if (!estimating) expect(runs.every((r) => !r.tokensEstimated)).toBe(true);

      const { capabilities } = await call(client, AGENT_MODEL, {});
      expect(capabilities).toMatchObject({ ...found, toolChoice: 'named' });
      // Found once, then remembered: only the first calls (a few run side by side) met a refusal.
      const refused = model.server.requests.filter((r) => refusalOf(r, refuse) !== null).length;
      expect(refused).toBeLessThanOrEqual(Object.keys(refuse).length === 0 ? 0 : 6);
      if (Object.keys(refuse).length && !refuse.toolChoice) expect(refused).toBeGreaterThan(0);
      expect(model.server.requests.length - refused).toBeGreaterThanOrEqual(15);
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});

describe('a consultation turn whose model call fails', () => {
  it('should keep the failure on the consultation and log one line, and the next turn clear it', async () => {
    const script = flowScript();
    const front: SchemaAnswer = (prompt, n) =>
      n === 1 ? { status: 400, message: 'Model Not Exist' } : (script.front_reply?.(prompt, n) ?? {});
    const model = await startScriptedModel({ ...script, front_reply: front }, { timeoutMs: 20_000 });
    const logged: unknown[] = [];
    const server = await startTestServer('sqlite', { model: model.model, app: { logError: (e) => logged.push(e) } });
    try {
      const { client } = server.connect(server.alice.token);
      const map = await call(client, CREATE_MAP, { input: { title: '茶店' } });
      const { id } = await call(client, START_CONSULTATION, { input: { mapId: map.id } });
      await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: '第一条' } });
      const failed = await eventually(async () => {
        const c = await call(client, CONSULTATION, { id });
        return !c.busy && c.failureCode ? c : null;
      }, 'the failed turn');
      expect(failed.failureCode).toBe('MODEL_UNAVAILABLE');
      expect(failed.failureReason).toContain('HTTP 400');
      expect(failed.messages.map((m) => m.text)).toEqual(['第一条']);
      const lines = logged.map(String).filter((line) => line.includes(`consultation ${id} turn failed`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('MODEL_UNAVAILABLE');

      await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: '第二条' } });
      const answered = await eventually(async () => {
        const c = await call(client, CONSULTATION, { id });
        return !c.busy && c.messages.length >= 3 && c;
      }, 'the next turn');
      expect(answered).toMatchObject({ failureCode: null, failureReason: null });
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
