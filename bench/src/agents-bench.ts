import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySaver } from '@langchain/langgraph';
import {
  type ChatRequest,
  createProcessNodeGraph,
  driveRun,
  type ModelPort,
  OfflineModel,
  resumeWith,
  SILENT_EVENTS,
  type StructuredRequest,
} from '@thinkingmap/agent-core';
import { InMemoryStore } from '@thinkingmap/agent-core/testing';
import { type Database, openDatabase } from '@thinkingmap/db';
import { buildApp, processNode, replyToQuestion } from '@thinkingmap/server';
import { type DbProfile, profileDatabase } from './db-profile.ts';
import { ms, summarize } from './stats.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

/** Leaves processed for the per-node figures (a root with this many children: a 100-node tree). */
const LEAVES = Number(process.env.BENCH_AGENT_LEAVES ?? 99);
/** Leaves processed first and not measured (JIT, caches, SQLite pages). */
const WARM_UP = 10;
const MODEL_DELAY_MS = 200;
/** Interleaved rounds of the sibling runs (one, eight, and the framework's two). */
const SIBLING_ROUNDS = Number(process.env.BENCH_SIBLING_ROUNDS ?? 5);

/** CPU time of this process (all its threads) since `from`, in ms. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** The offline model with a fixed latency per call, to stand in for a real model's 200 ms. */
class DelayedModel implements ModelPort {
  readonly offline = true;
  readonly label = 'offline + delay';
  readonly #inner = new OfflineModel();
  constructor(private readonly delayMs: number) {}
  async chat(request: ChatRequest) {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return this.#inner.chat(request);
  }
  async structured<T>(request: StructuredRequest<T>) {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return this.#inner.structured(request);
  }
}

/** A processed node's wall time and the process's CPU time in it, in ms. */
interface NodeTimes {
  ms: number;
  cpu: number;
}

/** Processes the `i`th leaf of its tree (start → question → reply → concluded) and times it. */
type NodeStepper = (i: number) => Promise<NodeTimes>;

/**
 * The framework's own cost: the same process-node graph on LangGraph's in-memory saver and agent-core's
 * in-memory store, driven start → question → reply → concluded like the product does.
 */
async function frameworkStepper(model: ModelPort, leaves: number): Promise<NodeStepper> {
  const { graph, store, ids } = await inMemoryTree(model, leaves);
  return async (i) => {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const { waiting, options } = await pauseInMemory(graph, store, ids[i]!, 'CONCLUDE');
    const done = await driveRun(graph, resumeWith(waiting.questions[0]!.requestId, { action: 'accept' }), options);
    if (done.status !== 'COMPLETED') throw new Error(`expected the run to complete, got ${done.status}`);
    return { ms: performance.now() - start, cpu: cpuMs(cpuStart) };
  };
}

/** The framework's wall time for `siblings` leaves driven at once to their question. */
async function frameworkSiblings(model: ModelPort, siblings: number): Promise<number> {
  const { graph, store, ids } = await inMemoryTree(model, siblings);
  const start = performance.now();
  await Promise.all(ids.map((nodeId) => pauseInMemory(graph, store, nodeId, null)));
  return performance.now() - start;
}

async function inMemoryTree(model: ModelPort, leaves: number) {
  const store = new InMemoryStore();
  const map = store.addMap({ problem: 'How do we grow?' });
  const root = await store.createNode({ mapId: map.id, parentId: null, question: 'How do we grow?', goal: '' });
  const ids: string[] = [];
  for (let i = 0; i < leaves; i++)
    ids.push(
      (await store.createNode({ mapId: map.id, parentId: root.id, question: `Channel ${i + 1}?`, goal: '' })).id,
    );
  const graph = createProcessNodeGraph({ model, store, events: SILENT_EVENTS }, { checkpointer: new MemorySaver() });
  return { graph, store, ids };
}

async function pauseInMemory(
  graph: ReturnType<typeof createProcessNodeGraph>,
  store: InMemoryStore,
  nodeId: string,
  intentOverride: 'CONCLUDE' | null,
) {
  const options = {
    run: { runId: nodeId, graph: 'process-node', nodeId },
    threadId: nodeId,
    events: SILENT_EVENTS,
    usage: () => ({ promptTokens: 0, completionTokens: 0 }),
    store,
  };
  const waiting = await driveRun(graph, { nodeId, intentOverride }, options);
  if (waiting.status !== 'WAITING') throw new Error(`expected a question, got ${waiting.status}`);
  return { waiting, options };
}

/** Databases opened so far (each app gets a file of its own). */
let databases = 0;

async function withApp<T>(
  model: ModelPort,
  /** `unprofiled`: the same database, for the bench's own reads (not counted as the product's). */
  work: (app: App, profile: DbProfile, unprofiled: Database) => Promise<T>,
  options: { flushAll?: boolean } = {},
): Promise<T> {
  const file = join(tmpdir(), `tm-agents-bench-${process.pid}-${++databases}.db`);
  const opened = await openDatabase({ url: `file:${file}` });
  const { db, profile } = profileDatabase(opened, options);
  const app = await buildApp({ db, model, localTokenFile: null });
  try {
    return await work(app, profile, opened);
  } finally {
    await app.stop();
    await opened.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
}

/** Creates a map with a root and `children` children through the command layer, autoRun off. */
async function seedTree(app: App, children: number) {
  const ctx = { db: app.db, bus: app.bus, viewer: app.localUser! };
  const { createMap, updateMap } = await import('../../apps/server/src/maps/map-commands.ts');
  const { createNode } = await import('../../apps/server/src/maps/node-commands.ts');
  const map = await createMap(ctx, { title: 'Agents benchmark' });
  await updateMap(ctx, { id: map.id, autoRun: false });
  const root = await createNode(ctx, { mapId: map.id, question: 'How do we grow?' });
  const ids: string[] = [];
  for (let i = 0; i < children; i++)
    ids.push(
      (await createNode(ctx, { mapId: map.id, parentId: root.id, question: `Channel ${i + 1}: what works?` })).id,
    );
  return { ctx, mapId: map.id, ids };
}

/** Resolves with the id of the first question each node's run asks (from the map's events: no polling). */
function questionsOf(app: App, mapId: string, nodeIds: string[]): Map<string, Promise<string>> {
  const resolvers = new Map<string, (questionId: string) => void>();
  const questions = new Map(
    nodeIds.map((id) => [id, new Promise<string>((resolve) => resolvers.set(id, resolve))] as const),
  );
  const stop = app.bus.listen(mapId, (event) => {
    if (event.type !== 'AgentQuestion' || !event.payload.question.nodeId) return;
    resolvers.get(event.payload.question.nodeId)?.(event.payload.question.id);
  });
  void Promise.all(questions.values()).then(stop);
  return questions;
}

/** The product's stepper, and what its measured nodes cost besides time (read once they are all done). */
interface ProductStepper {
  step: NodeStepper;
  /** Forgets the database profile so far (the warm-up's). */
  startMeasuring(): void;
  figures(): Promise<{
    stepsPerNode: number;
    checkpointKb: number;
    writes: { kind: string; count: number; statements: number; ms: number }[];
    reads: number;
    readMs: number;
  }>;
}

/** The product on SQLite with an instant model: each processed node timed, and where its database time went. */
async function productStepper(
  app: App,
  profile: DbProfile,
  unprofiled: Database,
  leaves: number,
): Promise<ProductStepper> {
  const { ctx, mapId, ids } = await seedTree(app, leaves);
  const questions = questionsOf(app, mapId, ids);
  let checkpointBytes = 0;
  let measured = 0;
  return {
    startMeasuring: () => profile.reset(),
    async step(i) {
      const nodeId = ids[i]!;
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const run = await processNode(app.engine, ctx, { nodeId, intent: 'CONCLUDE' });
      const questionId = await questions.get(nodeId)!;
      await app.engine.idle();
      const paused = performance.now();
      const cpuPaused = cpuMs(cpuStart);
      // Not timed: the checkpoint bytes the run keeps while it waits.
      const [rows, writes] = await Promise.all([
        unprofiled.read.checkpoint.findMany({ where: { threadId: run.threadId } }),
        unprofiled.read.checkpointWrite.findMany({ where: { threadId: run.threadId } }),
      ]);
      checkpointBytes +=
        rows.reduce((n, r) => n + r.checkpointData.length + r.metadataData.length, 0) +
        writes.reduce((n, w) => n + w.valueData.length, 0);
      measured++;
      const replied = performance.now();
      const cpuReplied = process.cpuUsage();
      await replyToQuestion(app.engine, ctx, questionId, { accept: true });
      await app.engine.idle();
      return { ms: paused - start + (performance.now() - replied), cpu: cpuPaused + cpuMs(cpuReplied) };
    },
    async figures() {
      const steps = await app.db.read.event.count({ where: { mapId, type: 'AgentStep' } });
      const reads = [...profile.reads.values()];
      return {
        stepsPerNode: steps / ids.length,
        checkpointKb: checkpointBytes / measured / 1024,
        writes: [...profile.writes].map(([kind, w]) => ({
          kind,
          count: w.count / LEAVES,
          statements: w.statements / LEAVES,
          ms: w.ms / LEAVES,
        })),
        reads: reads.reduce((n, r) => n + r.count, 0) / LEAVES,
        readMs: reads.reduce((n, r) => n + r.ms, 0) / LEAVES,
      };
    },
  };
}

/**
 * Per-node figures of the framework, the product with every write flushed (what relaxed durability saves) and the
 * product, interleaved node by node in a rotating order, so a change of the machine's load moves all three alike.
 */
async function perNodeFigures() {
  const model = new OfflineModel();
  const total = LEAVES + WARM_UP;
  const framework = await frameworkStepper(model, total);
  return withApp(
    model,
    (flushedApp, flushedProfile, flushedDb) =>
      withApp(model, async (app, profile, db) => {
        const steppers = [
          framework,
          (await productStepper(flushedApp, flushedProfile, flushedDb, total)).step,
          await productStepper(app, profile, db, total),
        ] as const;
        const product = steppers[2];
        const times: NodeTimes[][] = [[], [], []];
        for (let i = 0; i < total; i++) {
          if (i === WARM_UP) product.startMeasuring();
          for (let k = 0; k < 3; k++) {
            const which = (i + k) % 3;
            const stepper = steppers[which]!;
            const measuredTimes = await (typeof stepper === 'function' ? stepper(i) : stepper.step(i));
            if (i >= WARM_UP) times[which]!.push(measuredTimes);
          }
        }
        const series = (t: NodeTimes[]) => ({ samples: t.map((x) => x.ms), cpu: t.map((x) => x.cpu) });
        return {
          framework: series(times[0]!),
          flushed: series(times[1]!),
          product: { ...series(times[2]!), ...(await product.figures()) },
        };
      }),
    { flushAll: true },
  );
}

/** Wall time from starting `siblings` runs at once to every one of them waiting with its question. */
async function siblingsToQuestion(siblings: number): Promise<number> {
  return withApp(new DelayedModel(MODEL_DELAY_MS), async (app) => {
    const { ctx, mapId, ids } = await seedTree(app, siblings);
    const questions = questionsOf(app, mapId, ids);
    const start = performance.now();
    await Promise.all(ids.map((nodeId) => processNode(app.engine, ctx, { nodeId })));
    await Promise.all(questions.values());
    const wall = performance.now() - start;
    await app.engine.idle();
    return wall;
  });
}

const ratio = (value: number, of: number) => `${(value / of).toFixed(2)}×`;
const median = (samples: number[]) => summarize(samples).p50;
const mean = (samples: number[]) => samples.reduce((n, x) => n + x, 0) / samples.length;

/**
 * Agents' figures: orchestration per processed node with an instant model (start → question → reply →
 * concluded) beside the framework's own cost for the same graph in memory, where the product's time goes
 * (writes by kind, reads), checkpoint bytes, and 8 independent siblings with 200 ms model calls against one.
 * Medians, and the per-node runs and the sibling runs interleaved, so a burst of other work on the machine moves
 * them little.
 */
export async function benchAgents() {
  const { framework, flushed, product } = await perNodeFigures();
  const delayed = new DelayedModel(MODEL_DELAY_MS);
  const walls: Record<'one' | 'eight' | 'frameworkOne' | 'frameworkEight', number[]> = {
    one: [],
    eight: [],
    frameworkOne: [],
    frameworkEight: [],
  };
  for (let round = 0; round < SIBLING_ROUNDS; round++) {
    walls.one.push(await siblingsToQuestion(1));
    walls.eight.push(await siblingsToQuestion(8));
    walls.frameworkOne.push(await frameworkSiblings(delayed, 1));
    walls.frameworkEight.push(await frameworkSiblings(delayed, 8));
  }
  const perNode = median(product.samples);
  const frameworkNode = median(framework.samples);
  const [cpuNode, frameworkCpu] = [median(product.cpu), median(framework.cpu)];
  const [one, eight] = [median(walls.one), median(walls.eight)];

  console.log('\n(d) agents (medians)');
  console.table([
    {
      figure: `orchestration per processed node (instant model, ${LEAVES} leaves of a ${LEAVES + WARM_UP + 1}-node tree, SQLite)`,
      value: ms(perNode),
      note: `mean ${ms(mean(product.samples))}; ${Math.round(product.stepsPerNode)} step events per node, start → question → reply → concluded`,
    },
    {
      figure: 'same graph, in-memory saver and store (what the framework itself costs)',
      value: ms(frameworkNode),
      note: `mean ${ms(mean(framework.samples))}; product / framework: ${ratio(perNode, frameworkNode)}`,
    },
    {
      figure: 'CPU time of the process per processed node, product / framework (what other load moves least)',
      value: `${ms(cpuNode)} / ${ms(frameworkCpu)}`,
      note: `product / framework: ${ratio(cpuNode, frameworkCpu)}`,
    },
    {
      figure: 'same product, every write of the runs flushed to disk (relaxed durability off)',
      value: ms(median(flushed.samples)),
      note: `product / framework: ${ratio(median(flushed.samples), frameworkNode)}; CPU ${ms(median(flushed.cpu))}`,
    },
    {
      figure: 'checkpoint bytes stored per run at its question',
      value: `${Math.round(product.checkpointKb)} KB`,
      note: 'deleted when the run completes',
    },
    {
      figure: `1 sibling to its question, ${MODEL_DELAY_MS} ms per model call`,
      value: ms(one),
      note: `intent + draft; ${SIBLING_ROUNDS} rounds`,
    },
    {
      figure: '8 independent siblings at once, same',
      value: ms(eight),
      note: `${ratio(eight, one)} one sibling (framework in memory: ${ratio(median(walls.frameworkEight), median(walls.frameworkOne))})`,
    },
  ]);
  console.log(
    '  where a processed node spends its database time (means per node; a write counts from its call to commit):',
  );
  console.table([
    ...product.writes.map((w) => ({
      what: `writes: ${w.kind}`,
      count: w.count.toFixed(1),
      statements: w.statements.toFixed(1),
      time: ms(w.ms),
    })),
    { what: 'reads', count: product.reads.toFixed(1), statements: '', time: ms(product.readMs) },
  ]);
  console.log(
    `  aims: ≤ 30 ms per node (${ms(perNode)}), ≤ 3× the framework (${ratio(perNode, frameworkNode)}), ` +
      `8 siblings ≤ 1.15× one (${ratio(eight, one)}); CPU per node ${ratio(cpuNode, frameworkCpu)} the framework's`,
  );
}
