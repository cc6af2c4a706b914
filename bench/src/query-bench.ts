import { print } from 'graphql';
import { MAP_NODES_QUERY } from './bench-documents.ts';
import { type ChildServer, startChildServer } from './child-server.ts';
import { type LoadResult, type RequestSpec, runLoad } from './http-load.ts';
import { ms } from './stats.ts';
import { hasWrk, runWrk, warmWrk } from './wrk-load.ts';

const QUERY = print(MAP_NODES_QUERY);

/** One handler's request, sent to the server that answers it. */
interface Target {
  handler: string;
  server: ChildServer;
  spec: RequestSpec;
}

/**
 * (a) A 1,000-node map (question, goal, status, parent, dependencies) through the GraphQL API, beside a plain
 * node:http handler returning the same JSON from memory (`memory`: the read-speed baseline) and one doing the
 * same database read on every request (`plain`). Uncompressed on every side (wrk sends no Accept-Encoding).
 *
 * The API is asked in both forms of GraphQL over HTTP: by GET (the query in the URL, as the memory handler is asked)
 * and by POST (a JSON body, what most clients send). All servers run at once and, per connection count, the memory
 * handler is measured just before and just after the API: the ratios are against the mean of those two runs, so a
 * change of the machine's load during the bench moves the baseline with the API.
 */
export async function benchQuery(databaseUrl: string, mapId: string, token: string, seconds: number) {
  const rows: Record<string, string | number>[] = [];
  const wrk = hasWrk();
  console.log(
    wrk
      ? '  load generator: wrk'
      : '  load generator: node:http closed loops (install wrk for an independent client; this one adds its own tail)',
  );
  const memory = await startChildServer('memory', databaseUrl, mapId);
  const plain = await startChildServer('plain', databaseUrl, mapId);
  const graphql = await startChildServer('graphql', databaseUrl, mapId);
  const authorization = `Bearer ${token}`;
  const search = new URLSearchParams({ query: QUERY, variables: JSON.stringify({ id: mapId }) });
  const memoryTarget: Target = { handler: 'memory', server: memory, spec: { url: `${memory.url}/`, method: 'GET' } };
  const targets: Target[] = [
    memoryTarget,
    {
      handler: 'graphql GET',
      server: graphql,
      spec: { url: `${graphql.url}/graphql?${search}`, method: 'GET', headers: { authorization } },
    },
    {
      handler: 'graphql POST',
      server: graphql,
      spec: {
        url: `${graphql.url}/graphql`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ query: QUERY, variables: { id: mapId } }),
      },
    },
    { ...memoryTarget, handler: 'memory (again)' },
    { handler: 'plain', server: plain, spec: { url: `${plain.url}/?mapId=${mapId}`, method: 'GET' } },
  ];
  const ratios: string[] = [];
  for (const connections of [1, 32]) {
    const results = new Map<string, LoadResult>();
    for (const { handler, server, spec } of targets) {
      if (wrk) warmWrk(spec, connections);
      await server.serverTimes(); // forget the warm-up
      const result = wrk ? runWrk(spec, connections, seconds) : await runLoad(spec, connections, seconds);
      const inServer = await server.serverTimes();
      results.set(handler, result);
      rows.push({
        handler,
        connections,
        'req/s': Math.round(result.requestsPerSecond),
        p50: ms(result.p50),
        p99: ms(result.p99),
        max: ms(result.max),
        errors: result.errors,
        'server p50/p99/max': `${ms(inServer.p50)} / ${ms(inServer.p99)} / ${ms(inServer.max)}`,
        'server CPU µs/req': inServer.requests ? Math.round(inServer.cpuUs / inServer.requests) : '',
        'response KB': Math.round(result.bytes / 1024),
      });
    }
    const rps = (handler: string) => results.get(handler)?.requestsPerSecond ?? Number.NaN;
    const baseline = (rps('memory') + rps('memory (again)')) / 2;
    for (const form of ['GET', 'POST'])
      ratios.push(
        `  ratio graphql ${form}/memory at ${connections} connection(s): ${(rps(`graphql ${form}`) / baseline).toFixed(2)} (target ≥ 0.90)`,
      );
    ratios.push(
      `  ratio graphql GET/plain at ${connections} connection(s): ${(rps('graphql GET') / rps('plain')).toFixed(2)}`,
    );
  }
  for (const [handler, server] of [
    ['memory', memory],
    ['plain', plain],
    ['graphql', graphql],
  ] as const) {
    rows.push({ handler, 'response KB': `peak RSS ${(await server.peakRssMb()).toFixed(0)} MB` });
    await server.stop();
  }
  console.log('\n(a) 1,000-node map query');
  console.table(rows);
  console.log("  ratios to memory: against the mean of the memory runs just before and after the API's");
  for (const line of ratios) console.log(line);
  return rows;
}
