import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatRequest, type ModelPort, OfflineModel, type StructuredRequest } from '@thinkingmap/agent-core';
import { openDatabase } from '@thinkingmap/db';
import { buildApp } from '@thinkingmap/server';
import { ms } from './stats.ts';

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

async function withApp<T>(
  model: ModelPort,
  work: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>,
): Promise<T> {
  const file = join(tmpdir(), `tm-agents-bench-${process.pid}-${Date.now()}.db`);
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

/** Creates a map with a root and `children` children through the command layer, autoRun off. */
async function seedTree(app: Awaited<ReturnType<typeof buildApp>>, children: number) {
  const viewer = app.localUser!;
  const ctx = { db: app.db, bus: app.bus, viewer };
  const { createMap } = await import('../../apps/server/src/commands/map-commands.ts');
  const { createNode } = await import('../../apps/server/src/commands/node-commands.ts');
  const map = await createMap(ctx, { title: 'Agents benchmark' });
  await app.db.prisma.map.update({ where: { id: map.id }, data: { autoRun: false } });
  const root = await createNode(ctx, { mapId: map.id, question: 'How do we grow?' });
  const ids: string[] = [];
  for (let i = 0; i < children; i++)
    ids.push(
      (await createNode(ctx, { mapId: map.id, parentId: root.id, question: `Channel ${i + 1}: what works?` })).id,
    );
  return { ctx, mapId: map.id, ids };
}

async function questionOf(app: Awaited<ReturnType<typeof buildApp>>, nodeId: string) {
  for (;;) {
    const q = await app.db.prisma.agentQuestion.findFirst({ where: { nodeId, status: 'PENDING' } });
    if (q) return q;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * Issue 3's figures: orchestration overhead per processed node (instant model, 100-node tree), wall time of
 * 8 independent siblings with 200 ms model calls against one, and checkpoint bytes per run.
 */
export async function benchAgents() {
  const rows: Record<string, string | number>[] = [];
  await withApp(new OfflineModel(), async (app) => {
    const { ctx, ids } = await seedTree(app, 99);
    let checkpointBytes = 0;
    const start = performance.now();
    for (const nodeId of ids) {
      const run = await app.runs.processNode(ctx, { nodeId, intent: 'CONCLUDE' });
      const question = await questionOf(app, nodeId);
      await app.engine.idle();
      const rows = await app.db.prisma.checkpoint.findMany({ where: { threadId: run.threadId } });
      const writes = await app.db.prisma.checkpointWrite.findMany({ where: { threadId: run.threadId } });
      checkpointBytes +=
        rows.reduce((n, r) => n + r.checkpointData.length + r.metadataData.length, 0) +
        writes.reduce((n, w) => n + w.valueData.length, 0);
      await app.runs.reply(ctx, question.id, { accept: true });
      await app.engine.idle();
    }
    const perNode = (performance.now() - start) / ids.length;
    const steps = await app.db.prisma.event.count({ where: { type: 'AgentStep' } });
    rows.push({
      figure: 'orchestration per processed node (instant model, 99 leaves of a 100-node tree)',
      value: ms(perNode),
      note: `${Math.round(steps / ids.length)} step events per node, start → question → reply → concluded`,
    });
    rows.push({
      figure: 'checkpoint bytes stored per run at its question',
      value: `${Math.round(checkpointBytes / ids.length / 1024)} KB`,
      note: 'deleted when the run completes',
    });
  });
  for (const siblings of [1, 8]) {
    await withApp(new DelayedModel(200), async (app) => {
      const { ctx, ids } = await seedTree(app, siblings);
      const start = performance.now();
      await Promise.all(ids.map((nodeId) => app.runs.processNode(ctx, { nodeId })));
      await Promise.all(ids.map((nodeId) => questionOf(app, nodeId)));
      const wall = performance.now() - start;
      rows.push({
        figure: `${siblings} independent sibling(s) to their question, 200 ms per model call`,
        value: ms(wall),
        note: 'intent + draft: 2 model calls each',
      });
      await app.engine.idle();
    });
  }
  console.log('\n(d) agents');
  console.table(rows);
  const one = Number.parseFloat(String(rows.at(-2)?.value));
  const eight = Number.parseFloat(String(rows.at(-1)?.value));
  console.log(`  8 siblings / 1 sibling: ${(eight / one).toFixed(2)} (aim: under 2)`);
}
