import { CREATE_MAP, CREATE_NODE, createThinkingMapClient, MAP, type ThinkingMapClient } from '@thinkingmap/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { graphqlWsSource } from '../../src/lib/live/graphql-ws-source.ts';
import { call } from './helpers/api.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

describe.skipIf(!chromiumAvailable())('the live feed’s graphql-ws source against the real server', () => {
  let server: WebServer;
  let api: ThinkingMapClient;

  beforeAll(async () => {
    server = await startWebServer();
    api = createThinkingMapClient({ url: `${server.origin}/graphql`, webSocketImpl: WebSocket, retryAttempts: 3 });
  });

  afterAll(async () => {
    await api?.close();
    await server?.close();
  });

  it('should reconnect after a drop and resubscribe after the last event it delivered, so none is repeated', async () => {
    const map = await call(server.api.client, CREATE_MAP, { input: { title: 'Feed source', understand: false } });
    const root = await call(server.api.client, CREATE_NODE, { input: { mapId: map.id, question: 'Root' } });
    const loaded = await call(server.api.client, MAP, { id: map.id });
    const source = graphqlWsSource(api);
    const connections: boolean[] = [];
    const stopListening = source.onConnection({ connected: (retry) => connections.push(retry), closed: () => {} });
    let last = loaded.lastSeq;
    const seqs: number[] = [];
    const failures: unknown[] = [];
    const unsubscribe = source.subscribe(map.id, () => last, {
      next: (event) => {
        seqs.push(event.seq);
        last = event.seq;
      },
      error: (error) => failures.push(error),
      complete: () => failures.push('completed'),
    });
    const addChild = (question: string) =>
      call(server.api.client, CREATE_NODE, { input: { mapId: map.id, parentId: root.id, question } });

    await expect.poll(() => connections).toEqual([false]);
    await addChild('Before the drop');
    await expect.poll(() => seqs).toEqual([loaded.lastSeq + 1]);

    api.ws.terminate();
    await addChild('While down 1');
    await addChild('While down 2');
    await expect.poll(() => seqs).toEqual([loaded.lastSeq + 1, loaded.lastSeq + 2, loaded.lastSeq + 3]);
    expect(connections).toEqual([false, true]);
    expect(failures).toEqual([]);
    unsubscribe();
    stopListening();
  });
});
