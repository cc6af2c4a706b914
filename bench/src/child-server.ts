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
  stop(): Promise<void>;
}

/** Starts `serve.ts` in a child process and waits for it to listen. */
export function startChildServer(
  mode: 'graphql' | 'plain' | 'memory',
  databaseUrl: string,
  ...args: string[]
): Promise<ChildServer> {
  const script = fileURLToPath(new URL('./serve.ts', import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_FLAGS, '--import', 'tsx', script, mode, databaseUrl, ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
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
