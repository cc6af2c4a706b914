// The figures of pnpm bench (run through main.ts, with the server's V8 flags). Not a test: it never fails on a slow figure.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@thinkingmap/db';
import { createUserWithToken } from '@thinkingmap/server';
import { benchAgents } from './agents-bench.ts';
import { SERVER_FLAGS } from './child-server.ts';
import { benchConsultation } from './consultation-bench.ts';
import { benchDivergent } from './divergent-bench.ts';
import { benchFanout } from './fanout-bench.ts';
import { benchQuery } from './query-bench.ts';
import { seedMap } from './seed.ts';
import { benchSoak } from './soak/soak-bench.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const events = Number(process.env.BENCH_EVENTS ?? 30);
const file = join(tmpdir(), `thinkingmap-bench-${process.pid}.db`);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `file:${file}`;

const db = await openDatabase({ url: databaseUrl });
const { user, token } = await createUserWithToken(db, 'Bench');
const mapId = await seedMap(db, user.id, 1000);
const target = await db.read.node.findFirstOrThrow({ where: { mapId, parentId: { not: null } } });
await db.close();

console.log(
  `ThinkingMap benchmarks — node ${process.version} ${SERVER_FLAGS.join(' ')}, ${databaseUrl.startsWith('file:') ? 'SQLite file' : 'PostgreSQL'}, ${seconds}s per load run`,
);

/** Runs one bench when chosen (BENCH_ONLY): a failing one says why and the others still run; `pnpm bench` fails. */
async function bench(name: string, run: () => Promise<unknown>): Promise<void> {
  if (process.env.BENCH_ONLY && process.env.BENCH_ONLY !== name) return;
  try {
    await run();
  } catch (error) {
    process.exitCode = 1;
    console.error(`\n${name} bench failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

await bench('query', () => benchQuery(databaseUrl, mapId, token, seconds));
await bench('fanout', () => benchFanout(databaseUrl, mapId, target.id, token, events));
await bench('agents', () => benchAgents());
await bench('divergent', () => benchDivergent());
await bench('consultation', () => benchConsultation());
// The soak runs only when asked for by name: it takes half an hour by default.
if (process.env.BENCH_ONLY === 'soak') {
  await bench('soak', () =>
    benchSoak({
      minutes: Number(process.env.BENCH_SOAK_MINUTES ?? 30),
      rate: Number(process.env.BENCH_SOAK_RATE ?? 45),
      snapshots: process.env.BENCH_SOAK_SNAPSHOTS,
      intervalS: Number(process.env.BENCH_SOAK_INTERVAL_S ?? 60),
    }),
  );
}
for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
// Whatever a bench left open (a socket of a failed run), the figures are printed: end here.
process.exit();
