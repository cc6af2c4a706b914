import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult, RequestSpec } from './http-load.ts';

/** Whether wrk (Debian package `wrk`) is installed: a C load generator that does not compete for our event loop. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

function toMs(value: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value.trim());
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  const unit = new Map([
    ['us', n / 1000],
    ['ms', n],
    ['s', n * 1000],
    ['m', n * 60_000],
  ]);
  return unit.get(match[2] ?? '') ?? Number.NaN;
}

/** Writes the Lua script that makes wrk send `spec`. */
function scriptFor(spec: RequestSpec): string {
  const script = join(mkdtempSync(join(tmpdir(), 'tm-wrk-')), 'request.lua');
  const headers = Object.entries(spec.headers ?? {})
    .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    .join('\n');
  writeFileSync(
    script,
    `wrk.method = "${spec.method}"\n${headers}\n${spec.body ? `wrk.body = ${JSON.stringify(spec.body)}` : ''}\n`,
  );
  return script;
}

/** One second of the same load, to warm the server's caches and compiled code before measuring. */
export function warmWrk(spec: RequestSpec, connections: number): void {
  execFileSync('wrk', ['-t', '1', '-c', String(connections), '-d', '1s', '-s', scriptFor(spec), spec.url], {
    encoding: 'utf8',
  });
}

/** Runs wrk with `connections` connections for `seconds` and parses its report. */
export function runWrk(spec: RequestSpec, connections: number, seconds: number): LoadResult {
  const script = scriptFor(spec);
  // One wrk thread: the machine has two cores and the server needs one of them.
  const threads = '1';
  const out = execFileSync(
    'wrk',
    [
      '-t',
      threads,
      '-c',
      String(connections),
      '-d',
      `${seconds}s`,
      '--timeout',
      '10s',
      '--latency',
      '-s',
      script,
      spec.url,
    ],
    {
      encoding: 'utf8',
    },
  );
  const latency = /Latency\s+(\S+)\s+(\S+)\s+(\S+)/.exec(out);
  const quantile = (q: string) => toMs(new RegExp(`\\s${q}%\\s+(\\S+)`).exec(out)?.[1] ?? '');
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const transfer = /requests in [\d.]+\w+, ([\d.]+)(\w+) read/.exec(out);
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[transfer?.[2] ?? 'B'] ?? 1;
  const errors =
    Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
    Number(/Socket errors:.*?timeout (\d+)/.exec(out)?.[1] ?? 0);
  return {
    count: requests,
    p50: quantile('50'),
    p99: quantile('99'),
    max: toMs(latency?.[3] ?? ''),
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    errors,
    bytes: requests ? (Number(transfer?.[1] ?? 0) * unit) / requests : 0,
  };
}
