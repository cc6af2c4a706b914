import { print } from 'graphql';
import { MAP_NODES_QUERY } from './bench-documents.ts';
import { type ChildServer, type ServerTimes, startChildServer } from './child-server.ts';
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

/** Rounds per connection count: each handler is measured once per round, in a rotating order (see benchQuery). */
const ROUNDS = Number(process.env.BENCH_QUERY_ROUNDS ?? 4);

/** The rounds of one handler (each as long) as one result: their mean rate, median p50, worst p99 and max. */
function combine(rounds: LoadResult[]): LoadResult {
  const p50s = rounds.map((r) => r.p50).sort((a, b) => a - b);
  return {
    count: rounds.reduce((n, r) => n + r.count, 0),
    requestsPerSecond: rounds.reduce((n, r) => n + r.requestsPerSecond, 0) / rounds.length,
    p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
    p99: Math.max(...rounds.map((r) => r.p99)),
    max: Math.max(...rounds.map((r) => r.max)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    bytes: rounds[0]?.bytes ?? 0,
  };
}

/**
 * (a) A 1,000-node map (question, goal, status, parent, dependencies) through the GraphQL API, beside a plain
 * node:http handler returning the same JSON from memory (`memory`: the read-speed baseline) and one doing the
 * same database read on every request (`plain`). Uncompressed on every side (wrk sends no Accept-Encoding).
 *
 * The API is asked in both forms of GraphQL over HTTP: by GET (the query in the URL, as the memory handler is asked)
 * and by POST (a JSON body, what most clients send). All servers run at once and, per connection count, the handlers
 * are measured in {@link ROUNDS} rounds of `seconds / ROUNDS` each, every round in another order: a change of the
 * machine's load during the bench (a single 8 s run of the same handler moved by 20% between two runs here) then
 * moves the baseline with the API, and the ratios compare their sums.
 */
export async function benchQuery(databaseUrl: string, mapId: string, token: string, seconds: number) {
  const rows: Record<string, string | number>[] = [];
  const wrk = hasWrk();
  console.log(
    wrk
      ? '  load generator: wrk'
      : '  load generator: node:http closed loops (install wrk for an independent client; this one adds its own tail)',
  );
  const memory = await startChildServer('memory', databaseUrl, { args: [mapId] });
  const plain = await startChildServer('plain', databaseUrl, { args: [mapId] });
  const graphql = await startChildServer('graphql', databaseUrl, { args: [mapId] });
  const authorization = `Bearer ${token}`;
  const search = new URLSearchParams({ query: QUERY, variables: JSON.stringify({ id: mapId }) });
  const targets: Target[] = [
    { handler: 'memory', server: memory, spec: { url: `${memory.url}/`, method: 'GET' } },
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
    { handler: 'plain', server: plain, spec: { url: `${plain.url}/?mapId=${mapId}`, method: 'GET' } },
  ];
  const slice = Math.max(1, Math.round(seconds / ROUNDS));
  const ratios: string[] = [];
  for (const connections of [1, 32]) {
    const rounds = new Map<string, LoadResult[]>(targets.map((t) => [t.handler, []]));
    const inServer = new Map<string, ServerTimes[]>(targets.map((t) => [t.handler, []]));
    if (wrk) for (const { spec } of targets) warmWrk(spec, connections);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < targets.length; k++) {
        const { handler, server, spec } = targets[(round + k) % targets.length]!;
        await server.serverTimes(); // forget what came before
        rounds.get(handler)!.push(wrk ? runWrk(spec, connections, slice) : await runLoad(spec, connections, slice));
        inServer.get(handler)!.push(await server.serverTimes());
      }
    }
    const results = new Map<string, LoadResult>();
    for (const { handler } of targets) {
      const result = combine(rounds.get(handler)!);
      const times = inServer.get(handler)!;
      const requests = times.reduce((n, t) => n + t.requests, 0);
      results.set(handler, result);
      rows.push({
        handler,
        connections,
        'req/s': Math.round(result.requestsPerSecond),
        'rounds req/s': rounds
          .get(handler)!
          .map((r) => Math.round(r.requestsPerSecond))
          .join(' '),
        p50: ms(result.p50),
        p99: ms(result.p99),
        max: ms(result.max),
        errors: result.errors,
        'server p50/p99': `${ms(times.map((t) => t.p50).sort((a, b) => a - b)[times.length >> 1] ?? 0)} / ${ms(Math.max(...times.map((t) => t.p99)))}`,
        'server CPU µs/req': requests ? Math.round(times.reduce((n, t) => n + t.cpuUs, 0) / requests) : '',
        'response KB': Math.round(result.bytes / 1024),
      });
    }
    const rps = (handler: string) => results.get(handler)?.requestsPerSecond ?? Number.NaN;
    const perRound = (handler: string) =>
      rounds
        .get(handler)!
        .map((r, i) => (r.requestsPerSecond / rounds.get('memory')![i]!.requestsPerSecond).toFixed(2))
        .join(' ');
    for (const form of ['GET', 'POST'])
      ratios.push(
        `  ratio graphql ${form}/memory at ${connections} connection(s): ${(rps(`graphql ${form}`) / rps('memory')).toFixed(2)} (target ≥ 0.90; rounds ${perRound(`graphql ${form}`)})`,
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
  console.log(
    `  ratios to memory: the sums of ${ROUNDS} interleaved rounds of ${slice} s (each round's ratio after it)`,
  );
  for (const line of ratios) console.log(line);
  return rows;
}
