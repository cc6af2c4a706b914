// pnpm bench: prints figures for issue 2's targets. Not a test: it never fails on a slow figure.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@thinkingmap/db';
import { createUserWithToken } from '@thinkingmap/server';
import { benchAgents } from './agents-bench.ts';
import { benchConsultation } from './consultation-bench.ts';
import { benchDivergent } from './divergent-bench.ts';
import { benchFanout } from './fanout-bench.ts';
import { benchQuery } from './query-bench.ts';
import { seedMap } from './seed.ts';

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
  `ThinkingMap benchmarks — node ${process.version}, ${databaseUrl.startsWith('file:') ? 'SQLite file' : 'PostgreSQL'}, ${seconds}s per load run`,
);
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'query') await benchQuery(databaseUrl, mapId, token, seconds);
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'fanout')
  await benchFanout(databaseUrl, mapId, target.id, token, events);
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'agents') await benchAgents();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'divergent') await benchDivergent();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'consultation') await benchConsultation();
for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
