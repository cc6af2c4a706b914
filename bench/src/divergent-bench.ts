import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySaver } from '@langchain/langgraph';
import {
  type ChatRequest,
  type ChatResult,
  createDivergentGraph,
  createDivergentSkills,
  type ModelPort,
  SILENT_EVENTS,
  type StructuredRequest,
  type StructuredResult,
} from '@thinkingmap/agent-core';
import { InMemoryStore } from '@thinkingmap/agent-core/testing';
import { openDatabase } from '@thinkingmap/db';
import { buildApp, startDivergent } from '@thinkingmap/server';
import { ms } from './stats.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

const MODEL_DELAY_MS = 200;
const ROUNDS = Number(process.env.BENCH_DIVERGENT_ROUNDS ?? 3);
const LEVELS = 5;
const TASKS = 8;

const usage = { promptTokens: 0, completionTokens: 0 };
const dimension = { score: 0.1, reason: 'not yet' };

/**
 * A model that plans `tasks` tasks each level and never scores past the threshold (so every level runs),
 * answering text at once or after `delayMs` per call.
 */
class BenchModel implements ModelPort {
  readonly offline = true;
  readonly label = 'bench';
  constructor(
    private readonly tasks: number,
    private readonly delayMs = 0,
  ) {}
  async #wait() {
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
  }
  async chat(request: ChatRequest): Promise<ChatResult> {
    await this.#wait();
    request.onToken?.('a result');
    return { text: 'a result', usage, model: 'bench' };
  }
  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    await this.#wait();
    const answer =
      request.schemaName === 'divergent_plan'
        ? {
            rationale: 'gaps',
            tasks: Array.from({ length: this.tasks }, (_, i) => ({
              name: `task ${i + 1}`,
              query: `find out ${i + 1}`,
              skill: 'commonQnA',
              priority: 3,
            })),
          }
        : { completeness: dimension, intentMatch: dimension, quality: dimension };
    const value = request.schema.parse(answer);
    return { text: JSON.stringify(answer), value, usage, model: 'bench', repaired: false };
  }
}

/** Runs `work` on the product (a fresh SQLite file) with `model`. */
async function withApp<T>(model: ModelPort, work: (app: App) => Promise<T>): Promise<T> {
  const file = join(tmpdir(), `tm-divergent-bench-${process.pid}-${Date.now()}.db`);
  const db = await openDatabase({ url: `file:${file}` });
  const app = await buildApp({ db, model, localTokenFile: null });
  try {
    return await work(app);
  } finally {
    await app.stop();
    await db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
}

/**
 * One session through the product (command layer, SQLite, events): the wall time of the whole session and of
 * each level (its first task started → its last task finished), timed from the map's events (no polling).
 */
async function productSession(app: App, options: { maxLevels: number; maxParallel: number }) {
  const ctx = { db: app.db, bus: app.bus, viewer: app.localUser! };
  const { createMap, updateMap } = await import('../../apps/server/src/maps/map-commands.ts');
  const { createNode } = await import('../../apps/server/src/maps/node-commands.ts');
  const map = await createMap(ctx, { title: 'Divergent benchmark' });
  await updateMap(ctx, { id: map.id, autoRun: false });
  const root = await createNode(ctx, { mapId: map.id, question: 'Where should the second café open?' });
  const levels = new Map<number, { start: number; end: number }>();
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const stop = app.bus.listen(map.id, (event) => {
    const now = performance.now();
    if (event.type === 'DivergentLevelStarted') levels.set(event.payload.level, { start: now, end: now });
    if (event.type === 'DivergentTaskFinished') levels.get(event.payload.level)!.end = now;
    if (event.type === 'DivergentFinished' || event.type === 'RunFailed') finish();
  });
  const start = performance.now();
  await startDivergent(app.engine, ctx, { nodeId: root.id, ...options, threshold: 0.9 });
  await finished;
  const total = performance.now() - start;
  stop();
  await app.engine.idle();
  return { total, levels: [...levels.values()].map((l) => l.end - l.start) };
}

/** The same session on the framework alone: the graph on LangGraph's in-memory saver and an in-memory store. */
async function frameworkSession(model: ModelPort, options: { maxLevels: number; maxParallel: number }) {
  const store = new InMemoryStore();
  const map = store.addMap({ problem: 'Where should the second café open?', language: 'en' });
  const root = await store.createNode({
    mapId: map.id,
    parentId: null,
    question: 'Where should the second café open?',
    goal: 'decide',
  });
  const graph = createDivergentGraph(
    { model, store, events: SILENT_EVENTS, skills: createDivergentSkills({ model }) },
    { checkpointer: new MemorySaver() },
  );
  const start = performance.now();
  const done = await graph.invoke(
    { nodeId: root.id, ...options, threshold: 0.9 },
    { configurable: { thread_id: crypto.randomUUID() } },
  );
  if (done.outcome !== 'FINISHED') throw new Error(`expected the session to finish, got ${done.outcome}`);
  return performance.now() - start;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** `pnpm bench` (BENCH_ONLY=divergent): the parallel level and the orchestration overhead of a session. */
export async function benchDivergent() {
  // (1) A level of 8 tasks against one task, each model call taking 200 ms, on the product.
  const one: number[] = [];
  const eight: number[] = [];
  await withApp(new BenchModel(1, MODEL_DELAY_MS), async (app) => {
    for (let round = 0; round < ROUNDS; round++)
      one.push(...(await productSession(app, { maxLevels: 1, maxParallel: 1 })).levels);
  });
  await withApp(new BenchModel(TASKS, MODEL_DELAY_MS), async (app) => {
    for (let round = 0; round < ROUNDS; round++)
      eight.push(...(await productSession(app, { maxLevels: 1, maxParallel: TASKS })).levels);
  });

  // (2) A whole 5-level session of 8 tasks per level with an instant model: product against framework.
  const product: number[] = [];
  const framework: number[] = [];
  const instant = new BenchModel(TASKS);
  await withApp(instant, async (app) => {
    await productSession(app, { maxLevels: 1, maxParallel: TASKS }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      product.push((await productSession(app, { maxLevels: LEVELS, maxParallel: TASKS })).total);
      framework.push(await frameworkSession(instant, { maxLevels: LEVELS, maxParallel: TASKS }));
    }
  });
  const [p, f] = [median(product), median(framework)];
  const tasks = LEVELS * TASKS;

  console.log(`\n(e) divergent exploration (medians of ${ROUNDS} rounds)`);
  console.table([
    {
      figure: `a level of 1 task, ${MODEL_DELAY_MS} ms per model call (first task started → last finished)`,
      value: ms(median(one)),
      note: 'product, SQLite',
    },
    {
      figure: `a level of ${TASKS} tasks, same`,
      value: ms(median(eight)),
      note: `${ratio(median(eight), median(one))} one task (target ≤ 1.3×)`,
    },
    {
      figure: `a ${LEVELS}-level session of ${TASKS} tasks per level, instant model`,
      value: ms(p),
      note: `${ms(p / tasks)} per task, ${ms(p / LEVELS)} per level`,
    },
    {
      figure: 'same graph, in-memory saver and store (the framework)',
      value: ms(f),
      note: `${ms(f / tasks)} per task, ${ms(f / LEVELS)} per level; product / framework: ${ratio(p, f)}`,
    },
  ]);
}
