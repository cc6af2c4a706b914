import { CREATE_MAP, CREATE_NODE, createThinkingMapClient } from '@thinkingmap/client';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, postgresReachable, type TestDatabase } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, type AppOptions, buildApp } from '../../src/app.ts';
import { createUserWithToken } from '../../src/auth/tokens.ts';
import { eventually } from '../helpers/agent-driver.ts';
import { collectOverWebSocket } from '../helpers/event-collector.ts';
import { leaveRunRunning } from '../helpers/left-running.ts';
import { createMap, createNode } from '../helpers/map-builder.ts';
import { type PrivateRedis, startPrivateRedis } from '../helpers/private-redis.ts';
import { call, startTestServer } from '../helpers/test-server.ts';

const reachable = await postgresReachable();
if (!reachable && process.env.CI) throw new Error('PostgreSQL is required in CI');

describe.skipIf(!reachable)('instances sharing PostgreSQL when Redis fails', () => {
  let redis: PrivateRedis;
  let testDb: TestDatabase;
  let token: string;
  const opened: { app: App; db: Database }[] = [];
  const errors: unknown[] = [];

  /** Starts one more instance on the shared database; returns its GraphQL endpoint. */
  async function instance(options: Partial<AppOptions>) {
    const db = await testDb.open();
    const app = await buildApp({
      db,
      requireToken: true,
      localTokenFile: null,
      logError: (e) => errors.push(e),
      ...options,
    });
    opened.push({ app, db });
    return { app, url: `${await app.start(0)}/graphql` };
  }
  const clientOf = (url: string) => createThinkingMapClient({ url, token, webSocketImpl: WebSocket, retryAttempts: 0 });

  beforeAll(async () => {
    redis = await startPrivateRedis();
    testDb = await createTestDatabase('postgresql');
    const db = await testDb.open();
    token = (await createUserWithToken(db, 'Operator')).token;
    await db.close();
  });
  afterAll(async () => {
    for (const { app, db } of opened) {
      await app.stop();
      await db.close();
    }
    await testDb?.drop();
    await redis?.stop();
  });

  it('should deliver what was published while Redis was down as soon as it is back, with no later event', async () => {
    // No periodic check here: only the reconnection may bring the lost event.
    const a = await instance({ redisUrl: redis.url, gapCheckMs: 3_600_000 });
    const b = await instance({ redisUrl: redis.url, gapCheckMs: 3_600_000 });
    const writer = clientOf(a.url);
    const reader = clientOf(b.url);
    try {
      const mapId = await createMap(writer.client, 'Through an outage');
      const events = collectOverWebSocket(reader.client, mapId);
      await expect.poll(() => b.app.bus.listenerCount(mapId)).toBe(1);
      const root = await createNode(writer.client, mapId, 'before the outage');
      await events.waitFor(1);

      await redis.stop();
      errors.length = 0;
      await createNode(writer.client, mapId, 'while Redis is down', root.id);
      // The publish was given up (ioredis stops retrying a command after 3 reconnections): only the log has it.
      const gaveUp = () => errors.some((error) => (error as Error).name === 'MaxRetriesPerRequestError');
      await expect.poll(gaveUp, { timeout: 20_000 }).toBe(true);
      expect(events.events).toHaveLength(1);

      await redis.start();
      const received = await events.waitFor(2, 20_000);
      // seq 1 is the map's MapCreated, before the subscription started.
      expect(received.map((event) => [event.__typename, event.seq])).toEqual([
        ['NodeCreated', 2],
        ['NodeCreated', 3],
      ]);
      events.stop();
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('should fill a subscription from the log when Redis dropped a message, without waiting for the next event', async () => {
    const reading = await instance({ redisUrl: redis.url, gapCheckMs: 100 });
    // A writer whose events never reach Redis: to every other instance, its messages are lost.
    const deaf = await instance({});
    const writer = clientOf(deaf.url);
    const reader = clientOf(reading.url);
    try {
      const mapId = await createMap(writer.client, 'Lost messages');
      const events = collectOverWebSocket(reader.client, mapId);
      await expect.poll(() => reading.app.bus.listenerCount(mapId)).toBe(1);
      const root = await createNode(writer.client, mapId, 'lost one');
      await createNode(writer.client, mapId, 'lost two', root.id);
      const received = await events.waitFor(2, 10_000);
      expect(received.map((event) => event.seq)).toEqual([2, 3]);
      events.stop();
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});

describe('a single instance restarted while its runs were mid-step', () => {
  it("should resume its own runs at boot, and leave another live instance's runs to their lease", async () => {
    const server = await startTestServer('sqlite', { app: { instanceId: 'solo' } });
    try {
      const { client } = server.connect(server.alice.token);
      const map = await call(client, CREATE_MAP, { input: { title: 'Interrupted' } });
      const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'root' } });
      const left = async (ownerInstance: string, ownerBoot: string) => {
        const input = { mapId: map.id, parentId: root.id, question: `run of ${ownerInstance}` };
        const node = await call(client, CREATE_NODE, { input });
        return leaveRunRunning(server.db, { mapId: map.id, nodeId: node.id }, { ownerInstance, ownerBoot });
      };
      const mine = await left('solo', 'the-boot-before');
      const other = await left('another-instance', 'its-boot');
      await server.restart();
      const resumed = await eventually(async () => {
        const run = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: mine.id } });
        return run.status !== 'RUNNING' ? run : null;
      }, 'the run this instance left to be resumed at boot');
      expect(resumed).toMatchObject({ status: 'WAITING', ownerInstance: 'solo' });
      expect(resumed.ownerBoot).not.toBe('the-boot-before');
      const untouched = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: other.id } });
      expect(untouched).toMatchObject({ status: 'RUNNING', ownerInstance: 'another-instance', ownerBoot: 'its-boot' });
    } finally {
      await server.close();
    }
  });
});
