import { createThinkingMapClient } from '@thinkingmap/client';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, postgresReachable, type TestDatabase } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../src/app.ts';
import { createUserWithToken } from '../src/auth/tokens.ts';
import { collectOverWebSocket } from './helpers/event-collector.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { fileRedisChannel } from './helpers/redis-channel.ts';
import { redisAnswers, sharedRedisUrl as redisUrl } from './helpers/redis-reachable.ts';

const reachable = (await redisAnswers()) && (await postgresReachable());
if (!reachable && process.env.CI) throw new Error('Redis and PostgreSQL are required in CI');
if (!reachable) console.warn('\n  ⚠ SKIPPED: Redis fan-out tests (Redis or PostgreSQL unreachable)\n');

describe.skipIf(!reachable)('two server instances sharing PostgreSQL and Redis', () => {
  let testDb: TestDatabase;
  const dbs: Database[] = [];
  const apps: App[] = [];
  const urls: string[] = [];
  let token: string;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgresql');
    for (let i = 0; i < 2; i++) {
      const db = await testDb.open();
      dbs.push(db);
      const app = await buildApp({
        db,
        redisUrl,
        redisChannel: fileRedisChannel,
        requireToken: true,
        localTokenFile: null,
      });
      apps.push(app);
      urls.push(`${await app.start(0)}/graphql`);
    }
    token = (await createUserWithToken(dbs[0]!, 'Scaled')).token;
  });
  afterAll(async () => {
    for (const app of apps) await app.stop();
    for (const db of dbs) await db.close();
    await testDb?.drop();
  });

  it('should deliver a change made through one instance to a subscriber of the other', async () => {
    const writer = createThinkingMapClient({ url: urls[0]!, token, webSocketImpl: WebSocket });
    const reader = createThinkingMapClient({ url: urls[1]!, token, webSocketImpl: WebSocket });
    try {
      const mapId = await createMap(writer.client, 'Scaled out');
      const events = collectOverWebSocket(reader.client, mapId);
      await expect.poll(() => apps[1]!.bus.listenerCount(mapId)).toBe(1);
      const root = await createNode(writer.client, mapId, 'root');
      await createNode(writer.client, mapId, 'child', root.id);
      const received = await events.waitFor(2);
      expect(received.map((e) => [e.__typename, e.seq])).toEqual([
        ['NodeCreated', 2],
        ['NodeCreated', 3],
      ]);
      events.stop();
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});
