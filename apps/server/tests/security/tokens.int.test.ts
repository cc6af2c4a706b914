import {
  API_TOKENS,
  CREATE_API_TOKEN,
  createThinkingMapClient,
  MAP_EVENTS,
  REVOKE_API_TOKEN,
  VIEWER,
} from '@thinkingmap/client';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, postgresReachable, type TestDatabase } from '@thinkingmap/db/testing';
import { print } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../../src/app.ts';
import { TOKEN_ENDED } from '../../src/auth/revocable-subscriptions.ts';
import { createUserWithToken, hashToken } from '../../src/auth/tokens.ts';
import { postGraphQL } from '../helpers/http-request.ts';
import { createMap, createNode } from '../helpers/map-builder.ts';
import { type PrivateRedis, startPrivateRedis } from '../helpers/private-redis.ts';
import { attempt, call } from '../helpers/test-server.ts';

const reachable = await postgresReachable();
if (!reachable && process.env.CI) throw new Error('PostgreSQL is required in CI');

/** A graphql-ws subscription opened by hand, to see how the server closes the socket. */
function openWebSocketSubscription(url: string, token: string, mapId: string) {
  const socket = new WebSocket(url.replace('http', 'ws'), 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  const subscribed = new Promise<void>((resolve, reject) => {
    socket.once('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: token } })),
    );
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        const payload = { query: print(MAP_EVENTS), variables: { mapId } };
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
        resolve();
      }
    });
    socket.once('error', reject);
  });
  return { subscribed, closed };
}

describe.skipIf(!reachable)('API tokens on two instances sharing PostgreSQL and Redis', () => {
  let redis: PrivateRedis;
  let testDb: TestDatabase;
  const dbs: Database[] = [];
  const apps: App[] = [];
  const urls: string[] = [];
  let owner: { id: string; token: string };

  beforeAll(async () => {
    redis = await startPrivateRedis();
    testDb = await createTestDatabase('postgresql');
    for (let i = 0; i < 2; i++) {
      const db = await testDb.open();
      dbs.push(db);
      const app = await buildApp({ db, redisUrl: redis.url, requireToken: true, localTokenFile: null });
      apps.push(app);
      urls.push(`${await app.start(0)}/graphql`);
    }
    const created = await createUserWithToken(dbs[0]!, 'Ada');
    owner = { id: created.user.id, token: created.token };
  });
  afterAll(async () => {
    for (const app of apps) await app.stop();
    for (const db of dbs) await db.close();
    await testDb?.drop();
    await redis?.stop();
  });

  const clientOn = (instance: number, token: string) =>
    createThinkingMapClient({ url: urls[instance]!, token, webSocketImpl: WebSocket, retryAttempts: 0 });

  it('should show a new token once, store only its hash, and list it without the token', async () => {
    const { client, close } = clientOn(0, owner.token);
    try {
      const created = await call(client, CREATE_API_TOKEN, { label: 'dashboard', scope: 'READ_ONLY' });
      expect(created.token).toMatch(/^tm_/);
      expect(created.apiToken).toMatchObject({ label: 'dashboard', scope: 'READ_ONLY', active: true, current: false });
      const row = await dbs[0]!.read.apiToken.findUniqueOrThrow({ where: { id: created.apiToken.id } });
      expect(row.tokenHash).toBe(hashToken(created.token));
      expect(JSON.stringify(await dbs[0]!.read.apiToken.findMany())).not.toContain(created.token);
      const listed = await call(client, API_TOKENS);
      expect(JSON.stringify(listed)).not.toContain(created.token);
      expect(listed.map((token) => token.label)).toEqual(['dashboard', 'default']);
      expect(listed.find((token) => token.label === 'default')?.current).toBe(true);
      expect((await call(clientOn(1, created.token).client, VIEWER)).id).toBe(owner.id);
    } finally {
      await close();
    }
  });

  it('should refuse an expiry in the past, and a token from the moment it expires', async () => {
    const { client, close } = clientOn(0, owner.token);
    try {
      const past = await attempt(client, CREATE_API_TOKEN, { expiresAt: new Date(Date.now() - 1_000).toISOString() });
      expect(past).toMatchObject({ __typename: 'ValidationError', field: 'expiresAt' });
      const soon = new Date(Date.now() + 1_500).toISOString();
      const { token } = await call(client, CREATE_API_TOKEN, { label: 'short', expiresAt: soon });
      expect((await postGraphQL(urls[1]!, '{ viewer { id } }', { authorization: `Bearer ${token}` })).status).toBe(200);
      await expect
        .poll(
          async () => (await postGraphQL(urls[1]!, '{ viewer { id } }', { authorization: `Bearer ${token}` })).status,
          {
            timeout: 10_000,
          },
        )
        .toBe(401);
    } finally {
      await close();
    }
  });

  it("should not let anyone revoke another person's token, nor see it", async () => {
    const other = await createUserWithToken(dbs[0]!, 'Bob');
    const { client, close } = clientOn(0, other.token);
    try {
      const ownersToken = await dbs[0]!.read.apiToken.findFirstOrThrow({ where: { userId: owner.id } });
      expect(await attempt(client, REVOKE_API_TOKEN, { id: ownersToken.id })).toMatchObject({
        __typename: 'ForbiddenError',
      });
      expect((await call(client, API_TOKENS)).map((token) => token.id)).not.toContain(ownersToken.id);
      expect((await dbs[0]!.read.apiToken.findUniqueOrThrow({ where: { id: ownersToken.id } })).revokedAt).toBeNull();
    } finally {
      await close();
    }
  });

  it('should refuse a revoked token at once on the other instance and close its WebSocket and SSE subscriptions there', async () => {
    const { client, close } = clientOn(0, owner.token);
    try {
      const mapId = await createMap(client, 'Watched by a dashboard');
      const { token, apiToken } = await call(client, CREATE_API_TOKEN, { label: 'wall screen', scope: 'READ_ONLY' });
      const headers = { authorization: `Bearer ${token}` };
      // The other instance has the token in its cache (30 s time to live) and a subscription open with it.
      expect((await postGraphQL(urls[1]!, '{ viewer { id } }', headers)).status).toBe(200);
      const ws = openWebSocketSubscription(urls[1]!, token, mapId);
      await ws.subscribed;
      const sse = createSseClient({ url: urls[1]!, headers, retryAttempts: 0 });
      const sseMessages: unknown[] = [];
      const sseDone = new Promise<void>((resolve) => {
        sse.subscribe(
          { query: print(MAP_EVENTS), variables: { mapId } },
          { next: (message) => void sseMessages.push(message), error: () => resolve(), complete: () => resolve() },
        );
      });
      // The WebSocket itself, its subscription and the SSE subscription.
      await expect.poll(() => apps[1]!.revocations.openCount(apiToken.id)).toBe(3);
      await createNode(client, mapId, 'seen before the revocation');
      await expect.poll(() => sseMessages.length).toBe(1);

      expect(await call(client, REVOKE_API_TOKEN, { id: apiToken.id })).toMatchObject({ active: false });

      expect(await ws.closed).toBe(4403);
      await sseDone;
      expect(JSON.stringify(sseMessages.at(-1))).toContain(TOKEN_ENDED.REVOKED);
      await expect.poll(() => apps[1]!.revocations.openCount(apiToken.id)).toBe(0);
      const refused = await postGraphQL(urls[1]!, '{ viewer { id } }', headers);
      expect(refused.status).toBe(401);
      sse.dispose();
    } finally {
      await close();
    }
  });
});
