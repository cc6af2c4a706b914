import { type KnowledgePort, type ModelPort, OfflineModel } from '@thinkingmap/agent-core';
import { createThinkingMapClient, type ThinkingMapClient } from '@thinkingmap/client';
import { createTestDatabase, type Database, type Provider } from '@thinkingmap/db';
import type { Client } from '@urql/core';
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
    });
  let app = await build(db);
  const base = await app.start(0);
  const port = Number(new URL(base).port);
  const endpoint = `${base}/graphql`;
  const alice = await createUserWithToken(db.prisma, 'Alice');
  const bob = await createUserWithToken(db.prisma, 'Bob');
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

function isMutation(document: unknown): boolean {
  return (document as { definitions: readonly { operation?: string }[] }).definitions.some(
    (d) => d.operation === 'mutation',
  );
}

/** Runs a mutation or query and returns `data[field]`; transport and GraphQL errors fail the test. */
export async function call<T = Record<string, any>>(
  client: Client,
  document: Parameters<Client['query']>[0],
  variables: Record<string, unknown> = {},
): Promise<T> {
  const result = isMutation(document)
    ? await client.mutation(document, variables).toPromise()
    : await client.query(document, variables).toPromise();
  if (result.error) throw new Error(`GraphQL error: ${result.error.message}`);
  const data = result.data as Record<string, unknown>;
  return Object.values(data)[0] as T;
}

/** Like {@link call}, but returns the whole result so tests can inspect errors. */
export async function raw(
  client: Client,
  document: Parameters<Client['query']>[0],
  variables: Record<string, unknown> = {},
) {
  return isMutation(document)
    ? client.mutation(document, variables).toPromise()
    : client.query(document, variables).toPromise();
}
