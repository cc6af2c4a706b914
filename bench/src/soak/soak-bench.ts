import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThinkingMapClient, VIEWER_EVENTS } from '@thinkingmap/client';
import { call } from '@thinkingmap/client/testing';
import { openDatabase } from '@thinkingmap/db';
import { createUserWithToken } from '@thinkingmap/server';
import { print } from 'graphql';
import WebSocket from 'ws';
import { type ProcessStats, startChildServer } from '../child-server.ts';
import { summarize } from '../stats.ts';
import { type FeedTally, openDashboard } from './dashboards.ts';
import { Pace } from './pace.ts';
import { type WorkTally, workAsPerson } from './person.ts';
import { SOAK_PROBE } from './soak-documents.ts';
import { slope } from './trend.ts';

/** Options of {@link benchSoak}. */
export interface SoakOptions {
  minutes: number;
  /** Operations a second, all people together (every request counts: each action and the map read after it). */
  rate: number;
  /** Write V8 heap snapshots of the server here after the warm-up and at the end, and 20 s CPU profiles then. */
  snapshots?: string;
  /** Seconds between two report lines (60: a line a minute). */
  intervalS?: number;
}

/** One minute's figures. */
interface Minute {
  minute: number;
  stats: ProcessStats;
  probeP50: number;
  probeP99: number;
  /** The dashboards' overview reads of the minute, p50 (ms). */
  overviewP50: number;
  operations: number;
}

const PEOPLE = ['en', 'zh', 'en', 'zh'] as const;
const COMING_AND_GOING_S = 12;

/**
 * Steady mixed work by four people for `minutes` (maps created and worked through with the offline model, a
 * consultation and a divergent session now and then, a map read after each action, each person's open map
 * subscribed) beside three dashboards on `viewerEvents`: one held over graphql-ws, one held over SSE, one that
 * closes and comes back from its cursor every 12 s. Every minute it prints the server's memory and handles (after a
 * full collection) and a tiny query's latency; at the end, the trend after the warm-up and whether any dashboard
 * missed or repeated an event.
 */
export async function benchSoak(options: SoakOptions): Promise<void> {
  const file = join(tmpdir(), `thinkingmap-soak-${process.pid}.db`);
  const databaseUrl = `file:${file}`;
  const db = await openDatabase({ url: databaseUrl });
  const people: { language: 'en' | 'zh'; token: string }[] = [];
  for (const [i, language] of PEOPLE.entries()) people.push({ language, ...(await createUserWithToken(db, `P${i}`)) });
  const prober = await createUserWithToken(db, 'Probe');
  await db.close();
  const server = await startChildServer('graphql', databaseUrl, { flags: ['--expose-gc'] });
  const endpoint = `${server.url}/graphql`;
  const warmup = Math.max(1, Math.round(options.minutes / 6));
  console.log(
    `\nSoak: ${options.minutes} min, ${PEOPLE.length} people at ${options.rate} operations/s in all, 3 dashboards ` +
      `(held over graphql-ws and SSE, one coming and going every ${COMING_AND_GOING_S} s); warm-up ${warmup} min`,
  );
  console.log(
    '  min   ops/s  errors  RSS MB  V8 MB  heap MB  ext MB  caches MB  outside MB  handles  probe p50/p99 ms  loop p99 ms  GC max/sum ms  overview p50/p99 ms  feeds delivered/skipped/repeated',
  );

  let running = true;
  const pace = new Pace(options.rate);
  const tally: WorkTally = { operations: 0, maps: 0, consultations: 0, divergent: 0, errors: 0, errorSamples: [] };
  const clients = people.map((p) =>
    createThinkingMapClient({ url: endpoint, token: p.token, webSocketImpl: WebSocket }),
  );
  const work = clients.map((api, i) =>
    workAsPerson({ api, language: people[i]!.language, pace, tally, running: () => running }),
  );
  const tallyOf = (name: string): FeedTally => ({
    name,
    delivered: 0,
    skipped: 0,
    repeated: 0,
    position: 0,
    overviews: 0,
    overviewMs: [],
    errors: 0,
  });
  const [wsFeed, sseFeed, roamingFeed] = [
    tallyOf('graphql-ws held'),
    tallyOf('SSE held'),
    tallyOf('graphql-ws coming and going'),
  ];
  const feeds = [wsFeed, sseFeed, roamingFeed];
  const dashboards = [
    openDashboard({ endpoint, token: people[0]!.token, transport: 'graphql-ws', tally: wsFeed }),
    openDashboard({ endpoint, token: people[1]!.token, transport: 'sse', tally: sseFeed }),
  ];
  let roaming = openDashboard({ endpoint, token: people[2]!.token, transport: 'graphql-ws', tally: roamingFeed });
  const comeAndGo = setInterval(() => {
    const after = roaming.cursor();
    void roaming.close();
    roaming = openDashboard({ endpoint, token: people[2]!.token, transport: 'graphql-ws', tally: roamingFeed, after });
  }, COMING_AND_GOING_S * 1_000);

  let samples: number[] = [];
  const probeBody = JSON.stringify({ query: print(SOAK_PROBE) });
  const probe = setInterval(() => {
    const start = performance.now();
    fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${prober.token}` },
      body: probeBody,
    })
      .then((res) => res.text())
      .then(() => samples.push(performance.now() - start))
      .catch(() => tally.errors++);
  }, 250);

  const minutes: Minute[] = [];
  let operationsBefore = 0;
  for (let minute = 1; minute <= options.minutes; minute++) {
    await new Promise((resolve) => setTimeout(resolve, (options.intervalS ?? 60) * 1_000));
    const stats = await server.stats();
    const { p50, p99 } = summarize(samples);
    samples = [];
    const overviews = summarize(feeds.flatMap((feed) => feed.overviewMs.splice(0)));
    const operations = tally.operations - operationsBefore;
    operationsBefore = tally.operations;
    const perSecond = operations / (options.intervalS ?? 60);
    minutes.push({ minute, stats, probeP50: p50, probeP99: p99, overviewP50: overviews.p50, operations });
    const delivered = feeds.map((f) => `${f.delivered}/${f.skipped}/${f.repeated}`).join('  ');
    console.log(
      `  ${String(minute).padStart(3)}  ${perSecond.toFixed(1).padStart(6)}  ${String(tally.errors).padStart(6)}` +
        `  ${stats.rssMb.toFixed(0).padStart(6)}  ${stats.heapTotalMb.toFixed(0).padStart(5)}  ${stats.heapUsedMb.toFixed(1).padStart(7)}` +
        `  ${stats.externalMb.toFixed(0).padStart(6)}  ${stats.cachesMb.toFixed(1).padStart(9)}  ${outside(stats).toFixed(1).padStart(10)}` +
        `  ${String(stats.handles).padStart(7)}` +
        `  ${p50.toFixed(1).padStart(7)} / ${p99.toFixed(1).padEnd(7)}  ${stats.loopDelayP99Ms.toFixed(1).padStart(10)}` +
        `  ${stats.gcPauseMaxMs.toFixed(0).padStart(6)} / ${stats.gcPauseTotalMs.toFixed(0).padEnd(5)}` +
        `  ${overviews.p50.toFixed(1).padStart(9)} / ${overviews.p99.toFixed(1).padEnd(7)}  ${delivered}`,
    );
    if (options.snapshots && minute === warmup) await snapshot(server, options.snapshots, 'after-warmup');
    if (options.snapshots && (minute === warmup || minute === options.minutes - 1)) {
      const file = join(options.snapshots, `soak-minute-${minute}.cpuprofile`);
      void server.cpuProfile(file, 20).then(() => console.log(`  CPU profile (20 s): ${file}`));
    }
  }

  running = false;
  clearInterval(probe);
  clearInterval(comeAndGo);
  await Promise.race([Promise.all(work), new Promise((resolve) => setTimeout(resolve, 120_000))]);
  // Every dashboard has caught up with its owner's feed: nothing is left after its last cursor.
  const behind = await Promise.all(
    [dashboards[0], dashboards[1], roaming].map(async (dashboard, i) => {
      const api = clients[i]!;
      // Events after the dashboard's cursor are on their way while the cursor moves; left unread if it stays put.
      let left = -1;
      for (let attempt = 0; attempt < 100; attempt++) {
        const after = dashboard!.cursor();
        const page = await call(api.client, VIEWER_EVENTS, { first: 1000, ...(after ? { after } : {}) });
        if (page.edges.length === 0) return 0;
        left = dashboard!.cursor() === after ? page.edges.length : -1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return left;
    }),
  );
  if (options.snapshots) await snapshot(server, options.snapshots, 'end');
  report(minutes, warmup, tally, feeds, behind);
  await Promise.all([...dashboards, roaming].map((d) => d.close()));
  await Promise.all(clients.map((c) => c.close()));
  await server.stop();
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

/** The heap and external memory the bounded caches do not account for: what must stay flat once warmed up. */
const outside = (stats: ProcessStats) => stats.heapUsedMb + stats.externalMb - stats.cachesMb;

async function snapshot(server: { heapSnapshot(file: string): Promise<void> }, dir: string, name: string) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `soak-${name}.heapsnapshot`);
  await server.heapSnapshot(path);
  console.log(`  heap snapshot: ${path}`);
}

function report(minutes: Minute[], warmup: number, tally: WorkTally, feeds: FeedTally[], behind: number[]) {
  const steady = minutes.filter((m) => m.minute > warmup);
  const trendOver = (over: Minute[], pick: (m: Minute) => number) => slope(over.map((m) => [m.minute, pick(m)]));
  const trend = (pick: (m: Minute) => number) => trendOver(steady, pick);
  const first = steady[0];
  const last = steady.at(-1);
  console.log(
    `  work: ${tally.operations} operations (${tally.maps} maps worked through, ${tally.consultations} consultations, ` +
      `${tally.divergent} divergent sessions), ${tally.errors} errors${tally.errorSamples.length ? `: ${tally.errorSamples.join(' | ')}` : ''}`,
  );
  if (first && last) {
    console.log(
      `  after the warm-up: RSS ${first.stats.rssMb.toFixed(0)} → ${last.stats.rssMb.toFixed(0)} MB ` +
        `(trend ${trend((m) => m.stats.rssMb).toFixed(2)} MB/min), heap ${first.stats.heapUsedMb.toFixed(1)} → ` +
        `${last.stats.heapUsedMb.toFixed(1)} MB (trend ${trend((m) => m.stats.heapUsedMb).toFixed(2)} MB/min), external ` +
        `${first.stats.externalMb.toFixed(0)} → ${last.stats.externalMb.toFixed(0)} MB (trend ${trend((m) => m.stats.externalMb).toFixed(2)} MB/min), ` +
        `caches ${first.stats.cachesMb.toFixed(1)} → ${last.stats.cachesMb.toFixed(1)} MB, heap and external outside the caches ` +
        `${outside(first.stats).toFixed(1)} → ${outside(last.stats).toFixed(1)} MB (trend ${trend((m) => outside(m.stats)).toFixed(2)} MB/min), handles ` +
        `${first.stats.handles} → ${last.stats.handles}; probe p99 ${first.probeP99.toFixed(1)} → ${last.probeP99.toFixed(1)} ms ` +
        `(trend ${trend((m) => m.probeP99).toFixed(2)} ms/min), event-loop delay p99 ${first.stats.loopDelayP99Ms.toFixed(1)} → ` +
        `${last.stats.loopDelayP99Ms.toFixed(1)} ms (trend ${trend((m) => m.stats.loopDelayP99Ms).toFixed(2)} ms/min), overview p50 ${first.overviewP50.toFixed(1)} → ${last.overviewP50.toFixed(1)} ms ` +
        `(trend ${trend((m) => m.overviewP50).toFixed(2)} ms/min)`,
    );
  }
  // Memory outside the caches grows with them while they fill (their estimates count less than they hold): its trend
  // tells whether memory is flat only from the minute they stopped growing.
  const full = fullFrom(steady);
  if (full === undefined) {
    const held = last?.stats.cachesMb ?? 0;
    console.log(
      `  the caches were still filling at the end (${held.toFixed(1)} MB): run longer to see memory once they are full`,
    );
  } else {
    const after = steady.filter((m) => m.minute >= full);
    const fullTrend = (pick: (m: Minute) => number) => trendOver(after, pick);
    console.log(
      `  the caches full from minute ${full} (${after[0]!.stats.cachesMb.toFixed(1)} MB): heap ${fullTrend((m) => m.stats.heapUsedMb).toFixed(2)} MB/min, ` +
        `outside the caches ${fullTrend((m) => outside(m.stats)).toFixed(2)} MB/min, probe p99 ${fullTrend((m) => m.probeP99).toFixed(2)} ms/min, ` +
        `overview p50 ${fullTrend((m) => m.overviewP50).toFixed(2)} ms/min`,
    );
  }
  for (const [i, feed] of feeds.entries()) {
    const left = behind[i];
    console.log(
      `  ${feed.name}: ${feed.delivered} events, ${feed.skipped} skipped, ${feed.repeated} repeated, ` +
        `${left === -1 ? 'still moving at the end' : `${left} left unread at the end`}, ${feed.overviews} overview reads, ${feed.errors} errors`,
    );
  }
}

/** The first minute from which the caches held what they held at the end (within 0.1 MB), if five minutes or more. */
function fullFrom(minutes: Minute[]): number | undefined {
  const last = minutes.at(-1);
  if (!last) return undefined;
  let from: number | undefined;
  for (const m of minutes) {
    if (Math.abs(m.stats.cachesMb - last.stats.cachesMb) <= 0.1) from ??= m.minute;
    else from = undefined;
  }
  return from !== undefined && last.minute - from >= 5 ? from : undefined;
}
