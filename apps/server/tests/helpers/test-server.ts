import { type KnowledgePort, type ModelPort, OfflineModel } from '@thinkingmap/agent-core';
import { createThinkingMapClient, type ThinkingMapClient } from '@thinkingmap/client';
import type { Database, Provider } from '@thinkingmap/db';
import { createTestDatabase } from '@thinkingmap/db/testing';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { type App, type AppOptions, buildApp } from '../../src/app.ts';
import { createUserWithToken } from '../../src/auth/tokens.ts';

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  requireToken?: boolean;
  redisUrl?: string;
  /** The agents' model (the offline model when omitted). */
  model?: ModelPort;
  runSettings?: AppOptions['runSettings'];
  /** Knowledge retrieval for the explore intent (none when omitted). */
  knowledge?: KnowledgePort;
  /** Any other option of the app (limits, guard, instance id, …). */
  app?: Partial<AppOptions>;
}

/** A running server on a random port over a fresh database, with two users and their tokens. */
export interface TestServer {
  app: App;
  db: Database;
  /** Stops the server and starts a new one on the same database and port (a process restart). */
  restart(): Promise<void>;
  /** The GraphQL endpoint. */
  endpoint: string;
  alice: { id: string; token: string };
  bob: { id: string; token: string };
  /** A urql client (HTTP + graphql-ws) acting with `token`; closed with the server. */
  connect(token: string | null): ThinkingMapClient;
  /** A graphql-sse client acting with `token`. */
  sse(token: string | null): ReturnType<typeof createSseClient>;
  close(): Promise<void>;
}

/** Starts a server for one test file; pass `{ requireToken: false }` to test the embedded local user. */
export async function startTestServer(provider: Provider, options: TestServerOptions = {}): Promise<TestServer> {
  const testDb = await createTestDatabase(provider);
  let db = await testDb.open();
  const build = (database: Database) =>
    buildApp({
      db: database,
      requireToken: options.requireToken ?? true,
      localTokenFile: null,
      redisUrl: options.redisUrl,
      model: options.model ?? new OfflineModel(),
      runSettings: options.runSettings,
      knowledge: options.knowledge,
      ...options.app,
    });
  let app = await build(db);
  const base = await app.start(0);
  const port = Number(new URL(base).port);
  const endpoint = `${base}/graphql`;
  const alice = await createUserWithToken(db, 'Alice');
  const bob = await createUserWithToken(db, 'Bob');
  const clients: ThinkingMapClient[] = [];
  const sseClients: ReturnType<typeof createSseClient>[] = [];
  const server: TestServer = {
    app,
    db,
    async restart() {
      await server.app.stop();
      await db.close();
      db = await testDb.open();
      app = await build(db);
      await app.start(port);
      server.app = app;
      server.db = db;
    },
    endpoint,
    alice: { id: alice.user.id, token: alice.token },
    bob: { id: bob.user.id, token: bob.token },
    connect(token) {
      const client = createThinkingMapClient({ url: endpoint, token, webSocketImpl: WebSocket, retryAttempts: 0 });
      clients.push(client);
      return client;
    },
    sse(token) {
      const client = createSseClient({
        url: endpoint,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        retryAttempts: 0,
      });
      sseClients.push(client);
      return client;
    },
    async close() {
      for (const client of sseClients) client.dispose();
      await Promise.all(clients.map((client) => client.close()));
      await server.app.stop();
      await server.db.close();
      await testDb.drop();
    },
  };
  return server;
}

/** The typed API calls the tests make (shared with the web's browser tests). */
export { attempt, call, raw } from '@thinkingmap/client/testing';
