import { CREATE_NODE, EVENTS, MAP, POST_MESSAGE, UPDATE_NODE } from '@thinkingmap/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMap, createNode } from './helpers/map-builder.ts';
import { call, startTestServer, type TestServer } from './helpers/test-server.ts';

describe('8 concurrent writers on the embedded file database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(() => server?.close());

  it('should never report busy or locked and keep every acknowledged write', async () => {
    const clients = Array.from({ length: 8 }, () => server.connect(server.alice.token).client);
    const mapId = await createMap(clients[0]!, 'Concurrency');
    const root = await createNode(clients[0]!, mapId, 'root');
    const acknowledged: string[] = [];
    const failures: string[] = [];
    await Promise.all(
      clients.map(async (client, writer) => {
        for (let i = 0; i < 15; i++) {
          const result = await call(client, CREATE_NODE, {
            input: { mapId, parentId: root.id, question: `w${writer} n${i}` },
          });
          if (result.__typename !== 'Node') {
            failures.push(JSON.stringify(result));
            continue;
          }
          acknowledged.push(result.id);
          const edited = await call(client, UPDATE_NODE, {
            input: { id: result.id, expectedVersion: 1, goal: `goal ${writer}` },
          });
          if (edited.__typename !== 'Node') failures.push(JSON.stringify(edited));
          const message = await call(client, POST_MESSAGE, {
            input: { nodeId: root.id, conversation: 'DECOMPOSE', content: `w${writer} m${i}` },
          });
          if (message.__typename !== 'Message') failures.push(JSON.stringify(message));
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(acknowledged).toHaveLength(120);
    const map = await call(clients[0]!, MAP, { id: mapId });
    const stored = new Set(map.nodes.map((n: { id: string }) => n.id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    expect(map.nodes.filter((n: { goal: string }) => n.goal.startsWith('goal '))).toHaveLength(120);
    // MapCreated, 1 root + 120 × (create, update, message) events, numbered 1..362 without a gap.
    const events = await call(clients[0]!, EVENTS, { mapId, after: 0, first: 1000 });
    expect(events.events.map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: 362 }, (_, i) => i + 1));
  });
});
