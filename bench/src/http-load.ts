import { Agent, request } from 'node:http';
import { type LatencySummary, summarize } from './stats.ts';

/** One request to send repeatedly. */
export interface RequestSpec {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** Throughput and latency of a closed-loop load. */
export interface LoadResult extends LatencySummary {
  requestsPerSecond: number;
  errors: number;
  bytes: number;
}

function send(agent: Agent, spec: RequestSpec): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(spec.url, { method: spec.method, headers: spec.headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

/**
 * Runs `connections` closed loops (each waits for its answer before sending again) over keep-alive sockets
 * for `seconds`, after a short warm-up. Bounded in time; stops by itself.
 */
export async function runLoad(spec: RequestSpec, connections: number, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const warmUntil = performance.now() + 1_000;
  while (performance.now() < warmUntil) await send(agent, spec);
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const start = performance.now();
  const end = start + seconds * 1_000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const result = await send(agent, spec);
          if (result.status !== 200) errors++;
          bytes = result.bytes;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1_000;
  agent.destroy();
  return { ...summarize(latencies), requestsPerSecond: latencies.length / elapsed, errors, bytes };
}
