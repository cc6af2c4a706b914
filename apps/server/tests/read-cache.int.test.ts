import { createThinkingMapClient, MAP, type ThinkingMapClient } from '@thinkingmap/client';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, type TestDatabase, testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../src/app.ts';
import { createUserWithToken } from '../src/auth/tokens.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { call } from './helpers/test-server.ts';

const providers = await testProviders();

describe.each(providers)('two instances on one %s database, each with its own in-process bus', (provider) => {
  let testDb: TestDatabase;
  const dbs: Database[] = [];
  const apps: App[] = [];
  const clients: ThinkingMapClient[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase(provider);
    for (let i = 0; i < 2; i++) {
      const db = await testDb.open();
      dbs.push(db);
      // No Redis: neither instance ever hears of the other's events, as when every bus message is lost. Such instances
      // take map versions from the database, not from their events (`mapVersionsFromEvents`).
      const app = await buildApp({
        db,
        requireToken: true,
        localTokenFile: null,
        recoverRuns: false,
        mapVersionsFromEvents: false,
      });
      apps.push(app);
      await app.start(0);
    }
    const { token } = await createUserWithToken(dbs[0]!, 'Reader');
    for (const app of apps) {
      clients.push(createThinkingMapClient({ url: `${app.url()}/graphql`, token, webSocketImpl: WebSocket }));
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    for (const app of apps) await app.stop();
    for (const db of dbs) await db.close();
    await testDb?.drop();
  });

  const questions = async (client: ThinkingMapClient, mapId: string) => {
    const map = await call(client.client, MAP, { id: mapId });
    return (map.nodes as { question: string }[]).map((node) => node.question);
  };

  it('should answer map.nodes with a change made on the other instance whose bus message never came', async () => {
    const [writer, reader] = clients as [ThinkingMapClient, ThinkingMapClient];
    const mapId = await createMap(writer.client, 'Two instances');
    const root = await createNode(writer.client, mapId, 'root');
    // The reader caches the node list as it is now.
    expect(await questions(reader, mapId)).toEqual(['root']);
    expect(await questions(reader, mapId)).toEqual(['root']);

    await createNode(writer.client, mapId, 'added elsewhere', root.id);
    expect(await questions(reader, mapId)).toEqual(['root', 'added elsewhere']);
  });
});
