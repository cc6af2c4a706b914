import { CREATE_MAP, CREATE_NODE, DELETE_MAP, EVENTS, UPDATE_MAP } from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/commands/event-log.ts';
import { toNodeSnapshot } from '../src/commands/event-snapshots.ts';
import type { MapEvent } from '../src/commands/map-event.ts';
import { mapEventStream } from '../src/events/map-event-stream.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = await testProviders();

describe.each(providers)('the event log on %s', (provider) => {
  let server: TestServer;
  let client: ReturnType<TestServer['connect']>['client'];
  beforeAll(async () => {
    server = await startTestServer(provider);
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server?.close());

  const logOf = (mapId: string) => readEvents(server.db.read, mapId, 0, 10_000);

  it("should start every map's log with MapCreated at seq 1", async () => {
    const map = await call(client, CREATE_MAP, { input: { title: 'A log from the start' } });
    const page = await call(client, EVENTS, { mapId: map.id, after: 0, first: 10 });
    expect(page.events.map((e: { __typename: string; seq: number }) => [e.__typename, e.seq])).toEqual([
      ['MapCreated', 1],
    ]);
    const [created] = await logOf(map.id);
    expect(created).toMatchObject({
      type: 'MapCreated',
      payload: { map: { id: map.id, title: 'A log from the start' } },
    });
  });

  it('should replay exactly the events that were published live', async () => {
    const mapId = await createMap(client, 'Live and replayed');
    const published: MapEvent[] = [];
    const stop = server.app.bus.listen(mapId, (event) => published.push(event));
    try {
      const root = await createNode(client, mapId, 'root');
      await createNode(client, mapId, 'child', root.id);
      await call(client, UPDATE_MAP, { input: { id: mapId, goal: 'see it twice' } });
      expect(published.map((e) => e.type)).toEqual(['NodeCreated', 'NodeCreated', 'MapUpdated']);
      expect(await readEvents(server.db.read, mapId, 1, 100)).toEqual(published);
    } finally {
      stop();
    }
  });

  it('should read an event stored as a whole row (version 1) back in its current shape', async () => {
    const mapId = await createMap(client, 'An old log');
    const node = await createNode(client, mapId, 'Stored before contracts');
    const row = await server.db.read.node.findUniqueOrThrow({ where: { id: node.id } });
    // What the first release wrote: the whole row with dates as strings, a column no event shows included.
    const wholeRow = {
      ...Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])),
      statusReason: 'an internal note',
      addedLater: 'a column the contract never named',
    };
    await server.db.write(async (tx) => {
      const { lastSeq } = await tx.map.findUniqueOrThrow({ where: { id: mapId } });
      await tx.event.create({
        data: {
          mapId,
          seq: lastSeq + 1,
          type: 'NodeUpdated',
          version: 1,
          payload: { node: wholeRow, fields: ['goal'] },
        },
      });
      await tx.map.update({ where: { id: mapId }, data: { lastSeq: lastSeq + 1 } });
    });
    const old = (await logOf(mapId)).at(-1)!;
    expect(old.type).toBe('NodeUpdated');
    expect(old.payload).toEqual({ node: toNodeSnapshot(row), fields: ['goal'] });
    expect(old.payload).not.toHaveProperty('node.statusReason');
    expect(old.payload).not.toHaveProperty('node.addedLater');
    const page = await call(client, EVENTS, { mapId, after: old.seq - 1, first: 10 });
    expect(page.events).toEqual([
      expect.objectContaining({
        __typename: 'NodeUpdated',
        seq: old.seq,
        fields: ['goal'],
        node: expect.objectContaining({ id: node.id, question: 'Stored before contracts', version: row.version }),
      }),
    ]);
  });

  it('should delete a map under its lock: commands racing with it land before MapDeleted or are refused', async () => {
    const mapId = await createMap(client, 'Deleted while busy');
    const root = await createNode(client, mapId, 'root');
    const stream = mapEventStream({ db: server.db.read, bus: server.app.bus, mapId, after: 0 });
    const streamed = (async () => {
      const seen: string[] = [];
      for await (const event of stream) seen.push(event.type);
      return seen;
    })();
    const writers = server.connect(server.alice.token).client;
    const [deleted, ...created] = await Promise.all([
      call(client, DELETE_MAP, { id: mapId }),
      ...Array.from({ length: 8 }, (_, i) =>
        attempt(writers, CREATE_NODE, { input: { mapId, question: `late ${i}`, parentId: root.id } }),
      ),
    ]);
    expect(deleted).toMatchObject({ __typename: 'DeletedMap', id: mapId });
    for (const result of created) expect(['Node', 'NotFoundError']).toContain(result.__typename);
    const log = await logOf(mapId);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.at(-1)?.type).toBe('MapDeleted');
    const createdIds = created.filter((r) => r.__typename === 'Node').map((r) => r.id);
    const logged = log.flatMap((e) => (e.type === 'NodeCreated' ? [e.payload.node.id] : []));
    expect(logged).toEqual(expect.arrayContaining(createdIds));
    expect(logged).toHaveLength(createdIds.length + 1);
    expect(await server.db.read.node.count({ where: { mapId } })).toBe(0);
    // Subscribers get everything up to MapDeleted, then their stream ends.
    expect(await streamed).toEqual(log.map((e) => e.type));
  });
});
