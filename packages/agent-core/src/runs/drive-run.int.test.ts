import { MemorySaver } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessNodeGraph } from '../graphs/process-node/graph.ts';
import { createUnderstandProblemGraph } from '../graphs/understand-problem/graph.ts';
import { MeteredModel } from '../model/metered-model.ts';
import { OpenAiModel } from '../model/openai-model.ts';
import { InMemoryStore } from '../testing/in-memory-store.ts';
import { type OpenAiServer, startOpenAiServer } from '../testing/openai-server.ts';
import { RecordingEvents } from '../testing/recording-events.ts';
import { driveRun, resumeWith } from './drive-run.ts';

let server: OpenAiServer | undefined;
afterEach(() => server?.close());

const understood = JSON.stringify({
  title: 'Laptop',
  problem: 'Pick a laptop for video editing',
  goal: 'buy one this month',
  constraints: ['under 2000 EUR'],
});

async function setUp(replies: Parameters<typeof startOpenAiServer>[0]) {
  server = await startOpenAiServer(replies);
  const store = new InMemoryStore();
  const map = store.addMap({ problem: 'laptop?' });
  const events = new RecordingEvents();
  const model = new MeteredModel(new OpenAiModel({ apiKey: 't', baseURL: server.baseURL, model: 'm', maxRetries: 0 }), {
    budget: 1000,
  });
  const deps = { model, store, events };
  return { store, map, events, model, deps };
}

describe('driveRun against a real OpenAI-compatible HTTP endpoint', () => {
  it('should wait, resume, finish, and report usage', async () => {
    const { store, map, events, model, deps } = await setUp({
      replies: [{ content: understood, usage: { promptTokens: 100, completionTokens: 20 } }],
    });
    const graph = createUnderstandProblemGraph(deps, { checkpointer: new MemorySaver() });
    const options = {
      run: { runId: 'r1', graph: 'understand-problem' },
      threadId: 't1',
      events,
      usage: () => model.usage,
    };
    const waiting = await driveRun(graph, { mapId: map.id, problem: 'laptop?' }, options);
    if (waiting.status !== 'WAITING') throw new Error(`expected WAITING, got ${waiting.status}`);
    expect(waiting.questions[0]).toMatchObject({ kind: 'confirm-understanding', requestId: expect.any(String) });
    const done = await driveRun(graph, resumeWith(waiting.questions[0]!.requestId, { confirm: true }), options);
    expect(done.status).toBe('COMPLETED');
    expect([...store.nodes.values()][0]?.question).toBe('Pick a laptop for video editing');
    expect(events.lines.at(-1)).toBe('run finished');
    expect(model.usage).toEqual({ promptTokens: 100, completionTokens: 20 });
  });

  it('should fail visibly with the raw text kept and the map unchanged when the output cannot be repaired', async () => {
    const { store, map, events, model, deps } = await setUp({
      replies: [{ content: 'Sure! Here is my answer:' }, { content: '{"title": 1}' }],
    });
    const graph = createUnderstandProblemGraph(deps, { checkpointer: new MemorySaver() });
    const outcome = await driveRun(
      graph,
      { mapId: map.id, problem: 'laptop?' },
      { run: { runId: 'r2', graph: 'understand-problem' }, threadId: 't2', events, usage: () => model.usage },
    );
    expect(outcome).toMatchObject({ status: 'FAILED', code: 'MODEL_UNPARSEABLE', raw: '{"title": 1}' });
    expect(store.log).toEqual([]);
    expect(events.lines.at(-1)).toBe('run failed MODEL_UNPARSEABLE');
  });

  it('should refuse model calls once the token budget is spent and mark the node FAILED', async () => {
    const { store, map, events, deps } = await setUp({ replies: [] });
    const root = await store.createNode({ mapId: map.id, parentId: null, question: 'laptop?', goal: '' });
    const broke = new MeteredModel(deps.model, { budget: 0 });
    const graph = createProcessNodeGraph({ ...deps, model: broke }, { checkpointer: new MemorySaver() });
    const outcome = await driveRun(
      graph,
      { nodeId: root.id },
      {
        run: { runId: 'r3', graph: 'process-node', nodeId: root.id },
        threadId: 't3',
        events,
        usage: () => broke.usage,
        store,
      },
    );
    expect(outcome).toMatchObject({ status: 'FAILED', code: 'BUDGET_EXHAUSTED' });
    expect(server?.requests).toHaveLength(0);
    expect(store.nodes.get(root.id)?.status).toBe('FAILED');
  });

  it('should report a cancelled run as CANCELLED', async () => {
    const { map, events, model, deps } = await setUp({ replies: [{ content: understood, delayMs: 2000 }] });
    const graph = createUnderstandProblemGraph(deps, { checkpointer: new MemorySaver() });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const outcome = await driveRun(
      graph,
      { mapId: map.id, problem: 'laptop?' },
      {
        run: { runId: 'r4', graph: 'understand-problem' },
        threadId: 't4',
        events,
        usage: () => model.usage,
        signal: controller.signal,
      },
    );
    expect(outcome.status).toBe('CANCELLED');
  });
});
