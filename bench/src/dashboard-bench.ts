// The viewer's overview (`dashboard(days: 14)`) read directly, after a long soak's worth of history: many maps,
// many runs, half of them spending tokens. Prints its latency; run with `tsx src/dashboard-bench.ts [sqlite|postgresql]`.
import type { Provider } from '@thinkingmap/db';
import { createTestDatabase } from '@thinkingmap/db/testing';
import { readDashboard } from '@thinkingmap/server';
import { ms, summarize } from './stats.ts';

const MAPS = Number(process.env.DASHBOARD_MAPS ?? 2_000);
const RUNS = Number(process.env.DASHBOARD_RUNS ?? 20_000);
const READS = Number(process.env.DASHBOARD_READS ?? 50);
const DAY_MS = 86_400_000;

const provider: Provider = process.argv[2] === 'postgresql' ? 'postgresql' : 'sqlite';
const testDb = await createTestDatabase(provider);
const db = await testDb.open();
try {
  const owner = await db.write((tx) => tx.user.create({ data: { name: 'Soak' } }));
  const now = Date.now();
  const mapIds = Array.from({ length: MAPS }, () => crypto.randomUUID());
  await db.write((tx) =>
    tx.map.createMany({ data: mapIds.map((id, i) => ({ id, ownerId: owner.id, title: `Map ${i}`, constraints: [] })) }),
  );
  // Runs spread over the last 30 days; every other one spent tokens.
  for (let at = 0; at < RUNS; at += 1_000) {
    const data = Array.from({ length: Math.min(1_000, RUNS - at) }, (_, k) => {
      const i = at + k;
      return {
        mapId: mapIds[i % MAPS]!,
        agent: 'process-node',
        threadId: crypto.randomUUID(),
        status: 'COMPLETED' as const,
        // 7,919 s apart modulo 30 days (in milliseconds, `i * 7919` stayed within the last 1.8 days).
        createdAt: new Date(now - ((i * 7_919_000) % (30 * DAY_MS))),
        promptTokens: i % 2 === 0 ? 100 + (i % 50) : 0,
        completionTokens: i % 2 === 0 ? 20 : 0,
        tokensEstimated: i % 10 === 0,
      };
    });
    await db.write((tx) => tx.agentRun.createMany({ data }));
  }
  const to = new Date(now);
  const from = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate()) - 13 * DAY_MS);
  for (let i = 0; i < 5; i++) await readDashboard(db.read, owner.id, from, to);
  const samples: number[] = [];
  for (let i = 0; i < READS; i++) {
    const started = performance.now();
    await readDashboard(db.read, owner.id, from, to);
    samples.push(performance.now() - started);
  }
  const { p50, p99, max } = summarize(samples);
  console.log(
    `dashboard(days: 14) on ${provider}, ${MAPS} maps, ${RUNS} runs: p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)} (${READS} reads)`,
  );
} finally {
  await db.close();
  await testDb.drop();
}
