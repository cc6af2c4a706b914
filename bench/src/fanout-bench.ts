import { Agent, request } from 'node:http';
import type { ResultOf } from '@thinkingmap/client';
import { print } from 'graphql';
import { createClient as createWsClient, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { FANOUT_SUBSCRIPTION, FANOUT_UPDATE_NODE } from './bench-documents.ts';
import { startChildServer } from './child-server.ts';
import { ms, summarize } from './stats.ts';

const SUBSCRIPTION = print(FANOUT_SUBSCRIPTION);
type FanoutResult = Pick<FormattedExecutionResult<ResultOf<typeof FANOUT_SUBSCRIPTION>>, 'data'>;

/** The question an event carries ('' for any other event). */
const questionOf = (result: FanoutResult) => {
  const event = result.data?.mapEvents;
  return event?.__typename === 'NodeUpdated' ? event.node.question : '';
};

type Subscriber = { dispose(): void };
type OnEvent = (question: string) => void;

function subscribeWs(endpoint: string, token: string, mapId: string, onEvent: OnEvent): Subscriber {
  const client = createWsClient({
    url: endpoint.replace('http', 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  client.subscribe<ResultOf<typeof FANOUT_SUBSCRIPTION>>(
    { query: SUBSCRIPTION, variables: { mapId } },
    { next: (r) => onEvent(questionOf(r)), error: () => {}, complete: () => {} },
  );
  return { dispose: () => void client.dispose() };
}

/**
 * A minimal SSE subscriber over node:http (GraphQL over SSE, distinct connections mode, as graphql-sse's
 * client speaks it). 1,000 fetch-based clients in one process measure the client more than the server.
 */
function subscribeSse(endpoint: string, token: string, mapId: string, onEvent: OnEvent, agent: Agent): Subscriber {
  const body = JSON.stringify({ query: SUBSCRIPTION, variables: { mapId } });
  const req = request(endpoint, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
  });
  req.on('response', (res) => {
    res.setEncoding('utf8');
    let buffer = '';
    res.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message.split('\n').find((line) => line.startsWith('data:'));
        if (data) onEvent(questionOf(JSON.parse(data.slice(5)) as FanoutResult));
      }
    });
  });
  req.on('error', () => {});
  req.end(body);
  return { dispose: () => req.destroy() };
}

async function mutate(endpoint: string, token: string, nodeId: string, question: string) {
  mutate.version[nodeId] ??= 1;
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: print(FANOUT_UPDATE_NODE),
      variables: { i: { id: nodeId, expectedVersion: mutate.version[nodeId], question } },
    }),
  });
  const body = (await response.json()) as { data: ResultOf<typeof FANOUT_UPDATE_NODE> };
  const result = body.data.updateNode;
  if (result.__typename === 'Node') mutate.version[nodeId] = result.version;
}
const versions: Record<string, number> = {};
mutate.version = versions;

/**
 * (b) Mutation → event received by 1, 100 and 1,000 subscribers over graphql-ws and SSE: latency from
 * sending the mutation to each subscriber receiving its event, deliveries per second, events lost.
 */
export async function benchFanout(databaseUrl: string, mapId: string, nodeId: string, token: string, events: number) {
  const server = await startChildServer('graphql', databaseUrl);
  const endpoint = `${server.url}/graphql`;
  const rows: Record<string, string | number>[] = [];
  const sseAgent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  for (const transport of ['graphql-ws', 'sse'] as const) {
    for (const count of [1, 100, 1000]) {
      const sentAt = new Map<string, number>();
      const latencies: number[] = [];
      const warmed = new Set<number>();
      let received = 0;
      let lastReceive = 0;
      const subscribers: Subscriber[] = [];
      for (let i = 0; i < count; i++) {
        const onEvent: OnEvent = (question) => {
          if (question.startsWith('warm')) return void warmed.add(i);
          const sent = sentAt.get(question);
          if (sent === undefined) return;
          lastReceive = performance.now();
          latencies.push(lastReceive - sent);
          received++;
        };
        subscribers.push(
          transport === 'sse'
            ? subscribeSse(endpoint, token, mapId, onEvent, sseAgent)
            : subscribeWs(endpoint, token, mapId, onEvent),
        );
      }
      // Wait until every subscriber is live (bounded: 60 s).
      for (let attempt = 0; warmed.size < count && attempt < 120; attempt++) {
        await mutate(endpoint, token, nodeId, `warm ${transport} ${count} ${attempt}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await server.serverTimes(); // the server's CPU time counts from here
      const start = performance.now();
      for (let k = 0; k < events; k++) {
        const question = `${transport}-${count}-${k}`;
        sentAt.set(question, performance.now());
        await mutate(endpoint, token, nodeId, question);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const deadline = performance.now() + 5_000;
      while (received < events * count && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const { cpuUs } = await server.serverTimes();
      const stats = summarize(latencies);
      rows.push({
        transport,
        subscribers: count,
        live: warmed.size,
        p50: ms(stats.p50),
        p99: ms(stats.p99),
        max: ms(stats.max),
        'deliveries/s': Math.round(received / ((lastReceive - start) / 1_000)),
        lost: events * count - received,
        // Everything the server did per event (the mutation, its commit and every delivery), stable under load.
        'server CPU ms/event': (cpuUs / 1_000 / events).toFixed(1),
      });
      for (const s of subscribers) s.dispose();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  console.log(`\n(b) mutation → event, ${events} mutations at ~20/s`);
  console.table(rows);
  console.log(`  peak RSS of the API process: ${(await server.peakRssMb()).toFixed(0)} MB`);
  await server.stop();
  return rows;
}
