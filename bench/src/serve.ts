// A server process for the benchmarks: `graphql` (the real API) or `plain` (node:http doing the same read).
// Prints `READY <url>` when listening; reports its peak RSS on stdout when asked (SIGUSR2).

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { openDatabase } from '@thinkingmap/db';
import { buildApp } from '@thinkingmap/server';
import type { ServerQuestion } from './child-server.ts';

const [mode, databaseUrl] = process.argv.slice(2);
if (!databaseUrl || (mode !== 'graphql' && mode !== 'plain' && mode !== 'memory'))
  throw new Error('usage: serve.ts graphql|plain|memory DATABASE_URL [mapId]');

function peakRssMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
const serverTimes: number[] = [];
// The process's CPU time (user + system) since the last report, and the requests finished in it: per request (or per
// event fanned out), the figure that stays put on a shared machine where throughput and latency move with its load.
let cpuSince = process.cpuUsage();
process.on('SIGUSR2', () => console.log(`PEAK_RSS ${peakRssMb().toFixed(1)}`));
// The bench's questions over the IPC channel: memory and handles (after a full collection when --expose-gc is on), or a
// heap snapshot written to a file.
/** What the server's bounded caches hold, by their own estimates (0 for the servers that have none). */
let cacheBytes = () => 0;
// How long the event loop was held by one piece of synchronous work (a SQLite statement, a large serialisation):
// what every other request waits behind. Reset at each report.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
// The garbage collector's pauses since the last report, the longest and their sum (ms), to tell its share of the delay;
// the full collections the reports force are left out.
let gcPauses = { maxMs: 0, totalMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const detail: unknown = 'detail' in entry ? entry.detail : undefined;
    const flags = detail && typeof detail === 'object' && 'flags' in detail ? Number(detail.flags) : 0;
    if (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) continue;
    gcPauses.maxMs = Math.max(gcPauses.maxMs, entry.duration);
    gcPauses.totalMs += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
process.on('message', (message: ServerQuestion) => {
  if (message.type === 'heap-snapshot') {
    writeHeapSnapshot(message.file);
    return void process.send?.(null);
  }
  if (message.type === 'cpu-profile') return void profileCpu(message.file, message.seconds);
  // Read before the full collection below, which holds the loop itself.
  const loopDelayP99Ms = loopDelay.percentile(99) / 1e6;
  const gcPausesSince = gcPauses;
  gcPauses = { maxMs: 0, totalMs: 0 };
  gc?.();
  loopDelay.reset();
  const memory = process.memoryUsage();
  process.send?.({
    rssMb: memory.rss / 2 ** 20,
    heapUsedMb: memory.heapUsed / 2 ** 20,
    heapTotalMb: memory.heapTotal / 2 ** 20,
    cachesMb: cacheBytes() / 2 ** 20,
    externalMb: memory.external / 2 ** 20,
    handles: process.getActiveResourcesInfo().length,
    afterGc: !!gc,
    loopDelayP99Ms,
    gcPauseMaxMs: gcPausesSince.maxMs,
    gcPauseTotalMs: gcPausesSince.totalMs,
  });
});
/** Profiles this process's CPU for `seconds`, writes the profile to `file` and answers when written. */
function profileCpu(file: string, seconds: number) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable', () =>
    session.post('Profiler.start', () =>
      setTimeout(
        () =>
          session.post('Profiler.stop', (error, result) => {
            if (!error) writeFileSync(file, JSON.stringify(result.profile));
            session.disconnect();
            process.send?.(null);
          }),
        seconds * 1_000,
      ),
    ),
  );
}

process.on('SIGUSR1', () => {
  const requests = serverTimes.length;
  const sorted = serverTimes.splice(0).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  const cpu = process.cpuUsage(cpuSince);
  cpuSince = process.cpuUsage();
  console.log(
    `SERVER_TIMES ${at(0.5).toFixed(2)} ${at(0.99).toFixed(2)} ${(sorted.at(-1) ?? 0).toFixed(2)} ${cpu.user + cpu.system} ${requests}`,
  );
});

const db = await openDatabase({ url: databaseUrl });
let url: string;
if (mode === 'graphql') {
  // The fan-out's 1,000 subscribers share one token, and one step's may not all have ended when the next opens.
  const subscriptionCaps = { perToken: 10_000 };
  const app = await buildApp({ db, requireToken: true, localTokenFile: null, subscriptionCaps });
  url = await app.start(0);
  cacheBytes = () => app.metrics.cacheBytes();
  // Server-side time of each request, from its arrival to its response's last byte handed to the kernel:
  // it tells the server's share of a latency from the load generator's (both share two cores).
  app.server.prependListener('request', (_req, res) => {
    const t0 = performance.now();
    res.on('finish', () => serverTimes.push(performance.now() - t0));
  });
} else {
  const readMap = (mapId: string) =>
    db.read.map.findUnique({
      where: { id: mapId },
      select: {
        nodes: {
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: {
            id: true,
            question: true,
            goal: true,
            status: true,
            parentId: true,
            dependencies: { select: { dependsOnId: true } },
          },
        },
      },
    });
  // memory: the same JSON, serialised once and kept in memory: what a handler doing nothing else serves.
  const mapId = process.argv[4] ?? '';
  const inMemory = mode === 'memory' ? Buffer.from(JSON.stringify({ data: { map: await readMap(mapId) } })) : null;
  const server = createServer(async (req, res) => {
    const t0 = performance.now();
    res.on('finish', () => serverTimes.push(performance.now() - t0));
    if (inMemory) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': inMemory.length });
      return void res.end(inMemory);
    }
    const map = await readMap(new URL(req.url ?? '/', 'http://x').searchParams.get('mapId') ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { map } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the raw JSON server has no TCP address');
  url = `http://127.0.0.1:${address.port}`;
}
console.log(`READY ${url}`);
