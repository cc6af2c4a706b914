import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The V8 flags the product starts with (apps/server `start`): a larger young generation keeps the short-lived
 * objects of large responses out of the old generation, whose collections made the latency tail.
 */
export const SERVER_FLAGS = ['--max-semi-space-size=64'];

/** What a benchmark server reports of the span since its last report (see {@link ChildServer.serverTimes}). */
export interface ServerTimes {
  p50: number;
  p99: number;
  max: number;
  /** CPU time of the server process, user and system, in µs. */
  cpuUs: number;
  requests: number;
}

/** The memory and handles of a benchmark server, read in its process (after a full collection when it can). */
export interface ProcessStats {
  rssMb: number;
  heapUsedMb: number;
  /** The JS heap's size as V8 holds it (used or not). */
  heapTotalMb: number;
  /** What the server's bounded caches hold by their own estimates (answers, rows, request texts): part of heap and external. */
  cachesMb: number;
  /** Memory of Buffers and other objects outside the JS heap (`external`, array buffers included). */
  externalMb: number;
  /** Live handles and requests (sockets, timers, …): `process.getActiveResourcesInfo()`. */
  handles: number;
  /** Whether the figures follow a full garbage collection (the process runs with `--expose-gc`). */
  afterGc: boolean;
  /** The event loop's delay since the last report, p99 (ms): how long its longest synchronous stretches held it. */
  loopDelayP99Ms: number;
  /** The garbage collector's pauses since the last report: the longest, and all of them summed (ms). */
  gcPauseMaxMs: number;
  gcPauseTotalMs: number;
}

/** A benchmark server running in its own process, so the load generator does not share its event loop. */
export interface ChildServer {
  url: string;
  peakRssMb(): Promise<number>;
  /**
   * Server-side p50, p99 and max (ms) of the requests finished since the last call, how many they were, and the
   * process's CPU time over the same span (µs, user + system: per request, what stays comparable when other
   * processes load the machine).
   */
  serverTimes(): Promise<ServerTimes>;
  /** Its memory and handles now. */
  stats(): Promise<ProcessStats>;
  /** Writes a V8 heap snapshot of the server to `file` (for finding what grows). */
  heapSnapshot(file: string): Promise<void>;
  /** Profiles the server's CPU for `seconds` and writes the profile (`.cpuprofile`, for Chrome's DevTools) to `file`. */
  cpuProfile(file: string, seconds: number): Promise<void>;
  stop(): Promise<void>;
}

/** What the bench asks a server over the IPC channel (see serve.ts). */
export type ServerQuestion =
  | { type: 'stats' }
  | { type: 'heap-snapshot'; file: string }
  | { type: 'cpu-profile'; file: string; seconds: number };

/** Options of {@link startChildServer}. */
export interface ChildServerOptions {
  /** Arguments after the database URL (the map a `memory` server serves). */
  args?: string[];
  /** V8 flags besides {@link SERVER_FLAGS} (`--expose-gc` for a soak). */
  flags?: string[];
}

/** Starts `serve.ts` in a child process and waits for it to listen. */
export function startChildServer(
  mode: 'graphql' | 'plain' | 'memory',
  databaseUrl: string,
  options: ChildServerOptions = {},
): Promise<ChildServer> {
  const script = fileURLToPath(new URL('./serve.ts', import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_FLAGS, ...(options.flags ?? []), '--import', 'tsx', script, mode, databaseUrl, ...(options.args ?? [])],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  // Requests over the IPC channel, answered in order.
  const answers: ((message: unknown) => void)[] = [];
  child.on('message', (message) => answers.shift()?.(message));
  const ask = <T>(request: ServerQuestion) =>
    new Promise<T>((resolve) => {
      answers.push((message) => resolve(message as T));
      child.send(request);
    });
  const lines = createInterface({ input: child.stdout! });
  const waiters: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiters.shift()?.(line));
  const nextLine = (prefix: string) =>
    new Promise<string>((resolve) => {
      const wait = (line: string) =>
        line.startsWith(prefix) ? resolve(line.slice(prefix.length).trim()) : waiters.unshift(wait);
      waiters.push(wait);
    });
  return nextLine('READY').then((url) => ({
    url,
    async serverTimes() {
      const answer = nextLine('SERVER_TIMES');
      child.kill('SIGUSR1');
      const [p50 = 0, p99 = 0, max = 0, cpuUs = 0, requests = 0] = (await answer).split(' ').map(Number);
      return { p50, p99, max, cpuUs, requests };
    },
    stats: () => ask<ProcessStats>({ type: 'stats' }),
    heapSnapshot: (file) => ask<void>({ type: 'heap-snapshot', file }),
    cpuProfile: (file, seconds) => ask<void>({ type: 'cpu-profile', file, seconds }),
    async peakRssMb() {
      const answer = nextLine('PEAK_RSS');
      child.kill('SIGUSR2');
      return Number(await answer);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  }));
}
