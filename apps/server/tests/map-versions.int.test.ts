import { createThinkingMapClient, type ThinkingMapClient } from '@thinkingmap/client';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, postgresReachable, type TestDatabase, testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../src/app.ts';
import { createUserWithToken } from '../src/auth/tokens.ts';
import { MapTokenLedgers } from '../src/runs/map-token-ledger.ts';
import { nextEventOf } from './helpers/event-reached.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { type PrivateRedis, startPrivateRedis } from './helpers/private-redis.ts';
import { redisAnswers } from './helpers/redis-reachable.ts';

const READ = 'query R($m: ID!) { map(id: $m) { ... on Map { lastSeq tokensUsed nodes { question } } } }';

type ReadMap = { lastSeq: number; tokensUsed: number; nodes: { question: string }[] };

/** Reads map `mapId` through `app` as the holder of `token` (a map read the stored answers serve). */
async function readMap(app: App, token: string, mapId: string): Promise<ReadMap> {
  const response = await fetch(`${app.url()}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: READ, variables: { m: mapId } }),
  });
  return ((await response.json()) as { data: { map: ReadMap } }).data.map;
}

/** Spends `tokens` on the map through the token ledger of `app` (a map without a budget: no run is needed). */
async function spend(app: App, mapId: string, tokens: number) {
  const ledger = new MapTokenLedgers(app.db, { bus: app.bus }).forRun({ id: 'no-such-run', mapId }, 'en');
  await (await ledger.reserve(tokens)).settle({ promptTokens: tokens, completionTokens: 0 });
}

/** How often `app` answered a map read from a stored answer. */
const hits = async (app: App) =>
  Number(/thinkingmap_graphql_stored_answers_total\{outcome="hit"\} (\d+)/.exec(await app.metrics.text())?.[1] ?? 0);

const providers = await testProviders();

describe.each(providers)('map versions told by the events, one instance on %s', (provider) => {
  let testDb: TestDatabase;
  let db: Database;
  let app: App;
  let token: string;
  let client: ThinkingMapClient;

  beforeAll(async () => {
    testDb = await createTestDatabase(provider);
    db = await testDb.open();
    app = await buildApp({ db, requireToken: true, localTokenFile: null, recoverRuns: false });
    await app.start(0);
    token = (await createUserWithToken(db, 'Reader')).token;
    client = createThinkingMapClient({ url: `${app.url()}/graphql`, token, webSocketImpl: WebSocket });
  });
  afterAll(async () => {
    await client?.close();
    await app?.stop();
    await db?.close();
    await testDb?.drop();
  });

  it("should answer a repeated read of a map from its stored answer without reading the map's row", async () => {
    const mapId = await createMap(client.client, 'Read often');
    await createNode(client.client, mapId, 'root');
    const first = await readMap(app, token, mapId);
    const rowReads = vi.spyOn(db, 'mapVersion');
    try {
      const before = await hits(app);
      for (let i = 0; i < 5; i++) expect(await readMap(app, token, mapId)).toEqual(first);
      expect(await hits(app)).toBe(before + 5);
      expect(rowReads).not.toHaveBeenCalled();
    } finally {
      rowReads.mockRestore();
    }
  });

  it("should show a change in the first read after the change's response, every time", async () => {
    const mapId = await createMap(client.client, 'Read my writes');
    const root = await createNode(client.client, mapId, 'root');
    for (let i = 0; i < 10; i++) {
      const before = await readMap(app, token, mapId);
      expect(await readMap(app, token, mapId)).toEqual(before);
      await createNode(client.client, mapId, `child ${i}`, root.id);
      const after = await readMap(app, token, mapId);
      expect(after.lastSeq).toBe(before.lastSeq + 1);
      expect(after.nodes.map((n) => n.question)).toContain(`child ${i}`);
    }
  });

  it('should show the tokens the ledger spent on a map in the first read after, though the ledger makes no event', async () => {
    const mapId = await createMap(client.client, 'Spent on');
    await readMap(app, token, mapId);
    expect((await readMap(app, token, mapId)).tokensUsed).toBe(0);
    await spend(app, mapId, 12);
    expect((await readMap(app, token, mapId)).tokensUsed).toBe(12);
    await spend(app, mapId, 30);
    expect((await readMap(app, token, mapId)).tokensUsed).toBe(42);
  });
});

const reachable = (await redisAnswers()) && (await postgresReachable());
if (!reachable && process.env.CI) throw new Error('Redis and PostgreSQL are required in CI');

describe.skipIf(!reachable)('map versions told by the events, two instances on PostgreSQL and Redis', () => {
  let testDb: TestDatabase;
  let redis: PrivateRedis;
  const dbs: Database[] = [];
  const apps: App[] = [];
  let token: string;
  let writer: ThinkingMapClient;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgresql');
    redis = await startPrivateRedis();
    for (let i = 0; i < 2; i++) {
      const db = await testDb.open();
      dbs.push(db);
      // Redis is stopped on purpose below: its connection errors are expected.
      const options = { db, redisUrl: redis.url, requireToken: true, localTokenFile: null, recoverRuns: false };
      const app = await buildApp({ ...options, logError: () => {} });
      apps.push(app);
      await app.start(0);
    }
    token = (await createUserWithToken(dbs[0]!, 'Scaled')).token;
    writer = createThinkingMapClient({ url: `${apps[0]!.url()}/graphql`, token, webSocketImpl: WebSocket });
    await vi.waitFor(() => {
      if (!apps.every((app) => app.bus.live())) throw new Error('a bus is not subscribed to Redis yet');
    });
  });
  afterAll(async () => {
    await writer?.close();
    for (const app of apps) await app.stop();
    for (const db of dbs) await db.close();
    await redis?.stop();
    await testDb?.drop();
  });

  it('should show on the other instance the tokens the ledger spent once its signal arrived', async () => {
    const [a, b] = apps as [App, App];
    const mapId = await createMap(writer.client, 'Spent elsewhere');
    await readMap(b, token, mapId);
    expect((await readMap(b, token, mapId)).tokensUsed).toBe(0);
    const told = new Promise<void>((resolve) => {
      const stop = b.bus.onSignal((signal) => {
        if (signal.type === 'map-row-changed' && signal.mapId === mapId) resolve(stop());
      });
    });
    await spend(a, mapId, 25);
    await told;
    expect((await readMap(b, token, mapId)).tokensUsed).toBe(25);
  });

  it('should read the map row on an instance whose bus lost Redis, and follow events again once it is back', async () => {
    const [, b] = apps as [App, App];
    const mapId = await createMap(writer.client, 'Through an outage');
    const root = await createNode(writer.client, mapId, 'root');
    await readMap(b, token, mapId);
    const stored = await readMap(b, token, mapId);

    await redis.stop();
    await expect.poll(() => b.bus.live()).toBe(false);
    // A change whose event cannot reach b: b reads the map's row instead of trusting the version it knew.
    await createNode(writer.client, mapId, 'during the outage', root.id);
    const during = await readMap(b, token, mapId);
    expect(during.lastSeq).toBe(stored.lastSeq + 1);
    expect(during.nodes.map((n) => n.question)).toContain('during the outage');

    await redis.start();
    await expect.poll(() => apps.every((app) => app.bus.live())).toBe(true);
    const reached = nextEventOf(b.bus, mapId);
    await createNode(writer.client, mapId, 'after the outage', root.id);
    await reached;
    const rowReads = vi.spyOn(dbs[1]!, 'mapVersion');
    try {
      const after = await readMap(b, token, mapId);
      expect(after.nodes.map((n) => n.question)).toContain('after the outage');
      expect(await readMap(b, token, mapId)).toEqual(after);
      // Once read again, the map's version is known from the events: the stored answer reads no row.
      const known = rowReads.mock.calls.length;
      expect(await readMap(b, token, mapId)).toEqual(after);
      expect(rowReads.mock.calls.length).toBe(known);
    } finally {
      rowReads.mockRestore();
    }
  });
});
