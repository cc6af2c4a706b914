import { print } from 'graphql';
import { MAP_NODES_QUERY } from './bench-documents.ts';
import { startChildServer } from './child-server.ts';
import { runLoad } from './http-load.ts';
import { ms } from './stats.ts';
import { hasWrk, runWrk, warmWrk } from './wrk-load.ts';

const QUERY = print(MAP_NODES_QUERY);

/**
 * (a) A 1,000-node map (question, goal, status, parent, dependencies) through the GraphQL API, beside a plain
 * node:http handler returning the same JSON from memory (`memory`: the read-speed baseline) and one doing the
 * same database read on every request (`plain`). Uncompressed on every side (wrk sends no Accept-Encoding).
 */
export async function benchQuery(databaseUrl: string, mapId: string, token: string, seconds: number) {
  const rows: Record<string, string | number>[] = [];
  const wrk = hasWrk();
  console.log(
    wrk
      ? '  load generator: wrk'
      : '  load generator: node:http closed loops (install wrk for an independent client; this one adds its own tail)',
  );
  for (const mode of ['memory', 'plain', 'graphql'] as const) {
    const server = await startChildServer(mode, databaseUrl, mapId);
    const spec =
      mode === 'graphql'
        ? {
            url: `${server.url}/graphql`,
            method: 'POST' as const,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ query: QUERY, variables: { id: mapId } }),
          }
        : { url: `${server.url}/?mapId=${mapId}`, method: 'GET' as const };
    for (const connections of [1, 32]) {
      if (wrk) warmWrk(spec, connections);
      await server.serverTimes(); // forget the warm-up
      const result = wrk ? runWrk(spec, connections, seconds) : await runLoad(spec, connections, seconds);
      const inServer = await server.serverTimes();
      rows.push({
        handler: mode,
        connections,
        'req/s': Math.round(result.requestsPerSecond),
        p50: ms(result.p50),
        p99: ms(result.p99),
        max: ms(result.max),
        errors: result.errors,
        'server p50/p99/max': `${ms(inServer.p50)} / ${ms(inServer.p99)} / ${ms(inServer.max)}`,
        'response KB': Math.round(result.bytes / 1024),
      });
    }
    rows.push({
      handler: mode,
      connections: '-',
      'req/s': '-',
      p50: '-',
      p99: '-',
      max: '-',
      errors: '-',
      'response KB': `peak RSS ${(await server.peakRssMb()).toFixed(0)} MB`,
    });
    await server.stop();
  }
  console.log('\n(a) 1,000-node map query');
  console.table(rows);
  const rps = (handler: string, connections: number) =>
    Number(rows.find((r) => r.handler === handler && r.connections === connections)?.['req/s']);
  for (const c of [1, 32]) {
    console.log(
      `  ratio graphql/memory at ${c} connection(s): ${(rps('graphql', c) / rps('memory', c)).toFixed(2)} (target ≥ 0.90)`,
    );
    console.log(`  ratio graphql/plain at ${c} connection(s): ${(rps('graphql', c) / rps('plain', c)).toFixed(2)}`);
  }
  return rows;
}
