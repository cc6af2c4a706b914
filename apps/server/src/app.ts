import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createModelFromEnv, type KnowledgePort, type ModelPort } from '@thinkingmap/agent-core';
import { type Database, openDatabase, repoDir, type User } from '@thinkingmap/db';
import { GraphQLError } from 'graphql';
import type { Context, SubscribePayload } from 'graphql-ws';
import { type Extra, useServer } from 'graphql-ws/use/ws';
import { createYoga, maskError } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { RUN_LEASE_MS, RunEngine, type RunSettings } from './agents/run-engine.ts';
import { RunService } from './agents/run-service.ts';
import { ensureLocalUser } from './auth/local-user.ts';
import { createTokenResolver } from './auth/tokens.ts';
import { type IdentityOptions, parseBearer, resolveViewer } from './auth/viewer.ts';
import type { CommandContext } from './commands/context.ts';
import { DomainError } from './errors/domain-errors.ts';
import { createEventBus, type EventBus } from './events/event-bus.ts';
import type { MapEvent } from './events/map-event.ts';
import { createFairQueue } from './fair-queue.ts';
import type { McpContext } from './mcp/mcp-context.ts';
import { createMcpHttpHandler, isMcpRequest } from './mcp/mcp-http-handler.ts';
import { MapReadCache } from './read-cache/map-read-cache.ts';
import type { GraphQLContext } from './schema/context.ts';
import { createLoaders } from './schema/loaders.ts';
import { schema } from './schema/schema.ts';

/** Options for {@link buildApp}. Everything has an embedded default. */
export interface AppOptions {
  /** DATABASE_URL; the embedded file database when omitted. */
  databaseUrl?: string;
  /** An already open database (tests share one between app instances). */
  db?: Database;
  /** REDIS_URL; the in-process bus when omitted. */
  redisUrl?: string;
  /** Refuse requests without a token (no local user). */
  requireToken?: boolean;
  /** Where the local user's token is written; `.data/local-token` by default, null to skip. */
  localTokenFile?: string | null;
  /**
   * Serves everything outside /graphql (the built web workspace), so browser and API share one origin.
   * `serveWeb` loads apps/web's build when it exists.
   */
  webHandler?: ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) | null;
  /** The agents' model; from OPENAI_* variables by default, the offline model when none are set. */
  model?: ModelPort;
  /** Knowledge retrieval for the explore intent (MCP); none by default. */
  knowledge?: KnowledgePort;
  /** Question time-out and cap. */
  runSettings?: Partial<RunSettings>;
  /**
   * Resume runs a previous process left mid-step (default true). A second process on the same database
   * (the MCP stdio command) must not: the API server is still driving them.
   */
  recoverRuns?: boolean;
  /** GraphQL requests executed at once; more wait in arrival order (default 8). */
  maxConcurrentRequests?: number;
  /** Called after every committed command (agents hook in here). */
  onCommitted?: (events: readonly MapEvent[]) => void;
  log?: (message: string) => void;
  /** Where unexpected errors are logged (clients only see "Unexpected error."); console.error by default. */
  logError?: (error: unknown) => void;
}

/** A built server: start it on a port, stop it, reach its parts. */
export interface App {
  db: Database;
  bus: EventBus;
  /** Agent runs (tests wait on `engine.idle()`). */
  runs: RunService;
  engine: RunEngine;
  /** Which model the agents use (offline when no OPENAI_* variables are set). */
  model: { offline: boolean; label: string };
  localUser: User | null;
  localToken: string | null;
  /** What MCP tools act through for `viewer` (the stdio command serves them without HTTP). */
  mcpContext(viewer: User): McpContext;
  /** Listens (port 0 = any free port); resolves with the base URL. */
  start(port?: number, host?: string): Promise<string>;
  stop(): Promise<void>;
  url(): string;
  server: Server;
}

function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof DomainError) {
    const status = error.code === 'UNAUTHENTICATED' ? 401 : 403;
    return new GraphQLError(error.message, { extensions: { code: error.code, http: { status } } });
  }
  return error instanceof GraphQLError ? error : new GraphQLError('Unexpected error.');
}

/** A bounded cache of compiled queries (clients send a handful of distinct documents). */
function jitCache() {
  const compiled = new Map<string, unknown>();
  return {
    get: (key: string) => compiled.get(key) as never,
    set: (key: string, value: unknown) => {
      if (compiled.size >= 500) compiled.delete(compiled.keys().next().value as string);
      compiled.set(key, value);
    },
  };
}

/** Builds the GraphQL server (HTTP, SSE and WebSocket on one port) without starting it. */
export async function buildApp(options: AppOptions = {}): Promise<App> {
  const log = options.log ?? (() => {});
  const logError = options.logError ?? ((error: unknown) => console.error('[thinkingmap] unexpected error:', error));
  const db = options.db ?? (await openDatabase({ url: options.databaseUrl, log }));
  const bus = createEventBus({ redisUrl: options.redisUrl });
  const tokenFile = options.localTokenFile === undefined ? join(repoDir, '.data/local-token') : options.localTokenFile;
  const local = options.requireToken
    ? { user: null, token: null }
    : await ensureLocalUser(db.prisma, tokenFile ?? undefined);
  const identity: IdentityOptions = { resolveToken: createTokenResolver(db.prisma), localUser: local.user };

  const cache = new MapReadCache(bus);
  const model = options.model ?? createModelFromEnv();
  const settings: RunSettings = { questionTtlMs: 30 * 60_000, maxQuestions: 3, ...options.runSettings };
  // Every committed change passes here: bottom-up conclusions start from it, and the embedder's hook.
  const onCommitted = (events: readonly MapEvent[]) => {
    void runs.onEvents({ db, bus, onCommitted }, events);
    options.onCommitted?.(events);
  };
  const engine = new RunEngine({ db, bus, model, knowledge: options.knowledge, settings, onCommitted });
  const runs = new RunService(engine);
  const modelInfo = { offline: model.offline, label: model.label };
  const contextFor = (viewer: User): GraphQLContext => {
    const commands: CommandContext = { db, bus, viewer, onCommitted };
    return { db, bus, viewer, cache, commands, runs, model: modelInfo, loaders: createLoaders(db.prisma) };
  };
  const expiry = setInterval(
    () => void runs.expireDue({ db, bus, onCommitted }).catch((error) => logError(error)),
    Math.max(50, Math.min(30_000, settings.questionTtlMs / 4)),
  );
  expiry.unref();
  // Runs a dead process left mid-step (their lease ran out) are resumed: at start, then checked periodically.
  const recovery =
    options.recoverRuns === false
      ? undefined
      : setInterval(() => void runs.recover(db).catch((error) => logError(error)), RUN_LEASE_MS / 3);
  recovery?.unref();
  if (options.recoverRuns !== false) await runs.recover(db);

  const yoga = createYoga<{ viewer?: User }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'ThinkingMap GraphQL' },
    maskedErrors: {
      isDev: false,
      // Unexpected errors reach the client as "Unexpected error." only; the server log keeps the cause.
      maskError: (error, message) => {
        const original = (error as { originalError?: unknown }).originalError ?? error;
        if (!(original instanceof GraphQLError)) logError(original);
        return maskError(error, message);
      },
    },
    logging: false,
    // Compiled queries: large map reads execute several times faster than with graphql-js.
    plugins: [useGraphQlJit({}, { cache: jitCache() })],
    context: async (initial) => {
      if (initial.viewer) return contextFor(initial.viewer);
      try {
        const token = parseBearer(initial.request.headers.get('authorization'));
        return contextFor(await resolveViewer(token, identity));
      } catch (error) {
        throw toGraphQLError(error);
      }
    },
  });

  const mcpContext = (viewer: User): McpContext => ({ commands: { db, bus, viewer, onCommitted }, runs, logError });
  const mcp = createMcpHttpHandler({ identity, contextFor: mcpContext, logError });
  const web = options.webHandler;
  const queue = createFairQueue(options.maxConcurrentRequests ?? 8);
  const server = createServer((req, res) => {
    if (isMcpRequest(req.url)) return void mcp(req, res);
    if (!web || req.url?.startsWith(yoga.graphqlEndpoint)) {
      // Subscriptions over SSE stay open: they bypass the queue.
      if (req.headers.accept?.includes('text/event-stream')) return yoga(req, res);
      return void queue.run(async () => {
        await yoga.requestListener(req, res);
      });
    }
    web(req, res, () => {
      res.statusCode = 404;
      res.end('Not found');
    });
  });
  const wss = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  const viewers = new WeakMap<object, User>();
  const wsServer = useServer(
    {
      onConnect: async (ctx: Context<Record<string, unknown>, Extra>) => {
        const params = ctx.connectionParams ?? {};
        const token = parseBearer(params.authorization ?? params.Authorization ?? params.token);
        try {
          viewers.set(ctx, await resolveViewer(token, identity));
          return true;
        } catch {
          return false;
        }
      },
      execute: (args: { rootValue: { execute: (a: unknown) => unknown } }) => args.rootValue.execute(args),
      subscribe: (args: { rootValue: { subscribe: (a: unknown) => unknown } }) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx: Context<Record<string, unknown>, Extra>, _id: string, params: SubscribePayload) => {
        const viewer = viewers.get(ctx)!;
        const {
          schema: s,
          execute,
          subscribe,
          contextFactory,
          parse,
          validate,
        } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          viewer,
        });
        const args = {
          schema: s,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args as never;
      },
    } as Parameters<typeof useServer>[0],
    wss,
  );

  let baseUrl = '';
  return {
    db,
    bus,
    runs,
    engine,
    model: modelInfo,
    server,
    localUser: local.user,
    localToken: local.token,
    mcpContext,
    url: () => baseUrl,
    start: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
          resolve(baseUrl);
        });
      }),
    async stop() {
      clearInterval(expiry);
      clearInterval(recovery);
      // Let drives in progress reach their next checkpoint; a waiting run needs nothing (it is in the database).
      await Promise.race([engine.idle(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await wsServer.dispose();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      cache.close();
      await bus.close();
      if (!options.db) await db.close();
    },
  };
}
