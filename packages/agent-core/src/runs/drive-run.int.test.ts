import { Command, MemorySaver } from '@langchain/langgraph';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortCheckpointSaver } from '../checkpoint/port-checkpoint-saver.ts';
import { AgentError } from '../errors/agent-error.ts';
import { createProcessNodeGraph } from '../graphs/process-node/graph.ts';
import { createUnderstandProblemGraph } from '../graphs/understand-problem/graph.ts';
import { MeteredModel } from '../model/metered-model.ts';
import { OpenAiModel } from '../model/openai-model.ts';
import { InMemoryCheckpointStore } from '../testing/in-memory-checkpoint-store.ts';
import { InMemoryStore } from '../testing/in-memory-store.ts';
import { type OpenAiServer, startOpenAiServer } from '../testing/openai-server.ts';
import { RecordingEvents } from '../testing/recording-events.ts';
import { driveRun, resumeWith } from './drive-run.ts';
import { recoveryInput } from './recovery-input.ts';

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

  /** Drives the understand graph with a model call that never answers in time, aborting once it was asked. */
  async function driveAborted(reason?: unknown) {
    const { map, events, model, deps } = await setUp({ replies: [{ content: understood, delayMs: 10_000 }] });
    const graph = createUnderstandProblemGraph(deps, { checkpointer: new MemorySaver() });
    const controller = new AbortController();
    const outcome = driveRun(
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
    await vi.waitFor(() => expect(server?.requests).toHaveLength(1));
    controller.abort(reason);
    return { outcome: await outcome, events };
  }

  it('should report a cancelled run as CANCELLED', async () => {
    const { outcome, events } = await driveAborted();
    expect(outcome.status).toBe('CANCELLED');
    // LangGraph rejects on the abort by itself while the step's model call unwinds: the step's own 'left'
    // may come before or after the run's end, which is reported once.
    expect(events.lines.filter((line) => line.startsWith('run '))).toEqual(['run failed CANCELLED']);
  });

  it('should end a drive its process released without ending the run: no RunFailed, the run resumes elsewhere', async () => {
    const { outcome, events } = await driveAborted(new AgentError('RELEASED', 'lease lost'));
    expect(outcome.status).toBe('RELEASED');
    expect(events.lines.filter((line) => line.startsWith('run '))).toEqual([]);
  });
});

describe('a run paused in one process and driven on in another (checkpoints stored only when a drive stops)', () => {
  const run = { runId: 'r5', graph: 'understand-problem' };

  async function pausedRun() {
    const { store, map, events, model, deps } = await setUp({ replies: [{ content: understood }] });
    const rows = new InMemoryCheckpointStore();
    const graph = createUnderstandProblemGraph(deps, { checkpointer: new PortCheckpointSaver(rows) });
    const options = { run, threadId: 't5', events, usage: () => model.usage };
    const input = { mapId: map.id, problem: 'laptop?' };
    const waiting = await driveRun(graph, input, options);
    if (waiting.status !== 'WAITING') throw new Error(`expected WAITING, got ${waiting.status}`);
    // A new process: a new graph over the same stored rows.
    const restarted = createUnderstandProblemGraph(deps, { checkpointer: new PortCheckpointSaver(rows) });
    return { store, rows, restarted, options, input, requestId: waiting.questions[0]!.requestId };
  }

  it('should store a single checkpoint for the drive that paused, and resume from it after a restart', async () => {
    const { store, rows, restarted, options, requestId } = await pausedRun();
    expect(rows.checkpoints).toHaveLength(1);
    const done = await driveRun(restarted, resumeWith(requestId, { confirm: true }), options);
    expect(done.status).toBe('COMPLETED');
    expect([...store.nodes.values()].map((n) => n.question)).toEqual(['Pick a laptop for video editing']);
  });

  it('should replay a run whose resumed drive died with the reply it had already got', async () => {
    const { store, restarted, options, input, requestId } = await pausedRun();
    const replay = await recoveryInput(restarted, 't5', input, new Map([[requestId, { confirm: true }]]));
    expect(replay).toBeInstanceOf(Command);
    const done = await driveRun(restarted, replay, options);
    expect(done.status).toBe('COMPLETED');
    expect(store.nodes.size).toBe(1);
  });

  it('should go on from the pause when no reply came, and start from the input when nothing was stored', async () => {
    const { restarted, input } = await pausedRun();
    expect(await recoveryInput(restarted, 't5', input, new Map())).toBeNull();
    expect(await recoveryInput(restarted, 'never-driven', input, new Map())).toBe(input);
  });
});
