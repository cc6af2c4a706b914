import { randomUUID } from 'node:crypto';
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
import { ensureLocalUser } from './auth/local-user.ts';
import { TOKEN_ENDED, useRevocableSubscriptions } from './auth/revocable-subscriptions.ts';
import { TokenRevocations } from './auth/token-revocations.ts';
import { createTokenResolver, createTokenUseRecorder } from './auth/tokens.ts';
import { accessNow, createBearerParser, type IdentityOptions, parseBearer, resolveAccess } from './auth/viewer.ts';
import type { Access } from './commands/access.ts';
import type { CommandContext } from './commands/context.ts';
import { DomainError } from './commands/domain-errors.ts';
import type { MapEvent } from './commands/map-event.ts';
import { ConsultationService } from './consultations/consultation-service.ts';
import { FileNotes } from './consultations/file-notes.ts';
import { createNotesRoute, isNotesRequest } from './consultations/notes-route.ts';
import { createEventBus, type EventBus } from './events/event-bus.ts';
import { watchForGaps } from './events/gap-watch.ts';
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, readBody } from './http/body-limit.ts';
import { compilesWithJit, createCompiledQueryCache } from './http/compiled-query-cache.ts';
import { createFairQueue } from './http/fair-queue.ts';
import { useHiddenSchema, useNoInternalDetails } from './http/hide-schema.ts';
import { computeThrough, MapResponseCache } from './http/map-response-cache.ts';
import { armorPlugin, boundedParserCache, useExecutionTimeout } from './http/query-limits.ts';
import { createRequestGuard, type RequestGuardOptions } from './http/request-guard.ts';
import { useSseSingleConnection } from './http/sse-single-connection.ts';
import { createLoaders } from './maps/loaders.ts';
import { MapReadCache } from './maps/map-read-cache.ts';
import type { McpContext } from './mcp/mcp-context.ts';
import { createMcpHttpHandler, isMcpRequest } from './mcp/mcp-http-handler.ts';
import { graphqlMetricsPlugins } from './ops/graphql-metrics.ts';
import { InstrumentedModel } from './ops/instrumented-model.ts';
import { ServerMetrics } from './ops/metrics.ts';
import { createOpsRoutes } from './ops/ops-routes.ts';
import { createOpsServer } from './ops/ops-server.ts';
import { RUN_HEARTBEAT_MS, RUN_LEASE_MS, RunEngine, type RunSettings } from './runs/run-engine.ts';
import { RunService } from './runs/run-service.ts';
import type { GraphQLContext } from './schema/context.ts';
import { schema } from './schema/schema.ts';

/** Options for {@link buildApp}. Everything has an embedded default. */
export interface AppOptions {
  /** TM_NOTES_DIR: where consultation notes are written, one folder per map (default `.data/notes`). */
  notesDir?: string;
  /** TM_CONSULTATION_COMPRESS_AFTER: turns before a consultation's earlier messages are summarised. */
  consultationCompressAfter?: number;
  /** DATABASE_URL; the embedded file database when omitted. */
  databaseUrl?: string;
  /** An already open database (tests share one between app instances). */
  db?: Database;
  /** REDIS_URL; the in-process bus when omitted. */
  redisUrl?: string;
  /** The Redis pub/sub channel of the event bus (see `EventBusOptions.channel`); instances share events on one. */
  redisChannel?: string;
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
  /** The operator's web search for divergent `webSearch` (HTTP API or MCP); none: the skill is not offered. */
  webSearch?: KnowledgePort;
  /** Question time-out and cap. */
  runSettings?: Partial<RunSettings>;
  /**
   * Resume runs a previous process left mid-step (default true). A second process on the same database
   * (the MCP stdio command) must not: the API server is still driving them.
   */
  recoverRuns?: boolean;
  /** GraphQL requests executed at once; more wait in arrival order (default 8). */
  maxConcurrentRequests?: number;
  /**
   * Who may reach the server from a browser (hosts and origins besides the server's own), see
   * security/request-guard.ts.
   */
  guard?: RequestGuardOptions;
  /** Hide the schema: no GraphiQL, no introspection, no field suggestions, no parser messages (default: requireToken). */
  hideSchema?: boolean;
  /** Largest request body read, in bytes (1 MB). */
  maxBodyBytes?: number;
  /** Queries running longer are answered with a time-limit error (10 s). */
  executionTimeoutMs?: number;
  /**
   * This instance's stable name (TM_INSTANCE_ID): at boot, runs its previous process left RUNNING are resumed at
   * once instead of after their lease. Must differ between instances sharing a database; random by default.
   */
  instanceId?: string;
  /** How often open subscriptions compare their maps' lastSeq with what Redis delivered (5 s; Redis only). */
  gapCheckMs?: number;
  /**
   * Serve /metrics, /healthz and /readyz on this separate port too (TM_METRICS_PORT; 0 = any free port), on
   * `metricsHost` (127.0.0.1): where Prometheus scrapes without a token. None by default.
   */
  metricsPort?: number;
  metricsHost?: string;
  /**
   * A bearer token that opens /metrics on the API's own port when tokens are required (TM_METRICS_TOKEN). Without
   * it, /metrics is served there only when tokens are not required (the embedded default).
   */
  metricsToken?: string;
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
  /** Consultations and their turns (tests wait on their outcomes). */
  consultations: ConsultationService;
  /** Which model the agents use (offline when no OPENAI_* variables are set). */
  model: { offline: boolean; label: string };
  localUser: User | null;
  localToken: string | null;
  /** What MCP tools act through for `access` (the stdio command serves them without HTTP). */
  mcpContext(access: Access): McpContext;
  /** Resolves a bearer token (the stdio command acts with TM_TOKEN). */
  resolveAccess(token: string | null): Promise<Access>;
  /** Revocations: tests wait until a connection of a token is tracked. */
  revocations: TokenRevocations;
  /** Prometheus metrics (GraphQL traffic, subscriptions, events, runs, model calls, question waits, process). */
  metrics: ServerMetrics;
  /** The private metrics listener's base URL (`metricsPort`), once started; null without one. */
  metricsUrl(): string | null;
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

/** Builds the GraphQL server (HTTP, SSE and WebSocket on one port) without starting it. */
export async function buildApp(options: AppOptions = {}): Promise<App> {
  const log = options.log ?? (() => {});
  const logError = options.logError ?? ((error: unknown) => console.error('[thinkingmap] unexpected error:', error));
  const db = options.db ?? (await openDatabase({ url: options.databaseUrl, log }));
  const bus = createEventBus({ redisUrl: options.redisUrl, channel: options.redisChannel, logError });
  const metrics = new ServerMetrics(db, logError);
  const publish = bus.publish.bind(bus);
  bus.publish = (events) => {
    metrics.countPublished(events);
    publish(events);
  };
  const tokenFile = options.localTokenFile === undefined ? join(repoDir, '.data/local-token') : options.localTokenFile;
  const local = options.requireToken ? { user: null, token: null } : await ensureLocalUser(db, tokenFile ?? undefined);
  const tokens = createTokenResolver(db.read, { onUse: createTokenUseRecorder(db, logError) });
  const identity: IdentityOptions = { tokens, localUser: local.user };
  const revocations = new TokenRevocations(bus, tokens);
  const hideSchema = options.hideSchema ?? !!options.requireToken;
  const guard = createRequestGuard(options.guard);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const cache = new MapReadCache();
  const model = new InstrumentedModel(options.model ?? createModelFromEnv(), metrics);
  const settings: RunSettings = {
    questionTtlMs: 30 * 60_000,
    maxQuestions: 3,
    heartbeatMs: RUN_HEARTBEAT_MS,
    maxMissedHeartbeats: 3,
    checkpointWindow: 20,
    ...options.runSettings,
  };
  // Every committed change passes here: bottom-up conclusions start from it, and the embedder's hook.
  const onCommitted = (events: readonly MapEvent[]) => {
    void runs.onEvents({ db, bus, onCommitted }, events);
    consultations.onEvents(events);
    metrics.onCommitted(events);
    options.onCommitted?.(events);
  };
  const owner = { instanceId: options.instanceId ?? randomUUID(), bootId: randomUUID() };
  const engine = new RunEngine({
    db,
    bus,
    model,
    knowledge: options.knowledge,
    webSearch: options.webSearch,
    settings,
    onCommitted,
    logError,
    owner,
  });
  const runs = new RunService(engine);
  const notes = new FileNotes(options.notesDir ?? join(repoDir, '.data/notes'));
  const consultations = new ConsultationService({
    db,
    bus,
    model,
    notes,
    runs,
    onCommitted,
    logError,
    compressAfterTurns: options.consultationCompressAfter,
  });
  const modelInfo = { offline: model.offline, label: model.label };
  const contextFor = (access: Access): GraphQLContext => {
    const commands: CommandContext = { db, bus, viewer: access.viewer, scope: access.scope, onCommitted };
    const loaders = createLoaders(db.read);
    return {
      db,
      bus,
      viewer: access.viewer,
      access,
      revocations,
      cache,
      commands,
      runs,
      consultations,
      notes,
      model: modelInfo,
      loaders,
    };
  };
  const expiry = setInterval(
    () => void runs.expireDue({ db, bus, onCommitted }).catch((error) => logError(error)),
    Math.max(50, Math.min(30_000, settings.questionTtlMs / 4)),
  );
  expiry.unref();
  // Runs a dead process left mid-step (their lease ran out) are resumed: at start, then checked periodically;
  // so do runs whose dependencies concluded while no process could start them.
  const recoverRuns = async () => {
    await runs.recover(db);
    await runs.startWaiting({ db, bus, onCommitted });
  };
  const recovery =
    options.recoverRuns === false
      ? undefined
      : setInterval(() => void recoverRuns().catch((error) => logError(error)), RUN_LEASE_MS / 3);
  recovery?.unref();
  if (options.recoverRuns !== false) await recoverRuns();
  if (options.recoverRuns !== false) await consultations.resumeUnfinished();
  // Redis may drop messages: subscriptions re-read the log when their map moved past what arrived.
  const stopGapWatch = options.redisUrl
    ? watchForGaps({ db: db.read, bus, intervalMs: options.gapCheckMs, logError })
    : () => {};

  const yoga = createYoga<{ access?: Access }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: hideSchema ? false : { title: 'ThinkingMap GraphQL' },
    // Only reached by requests the guard let through: the server's own origin, or one the operator allowed.
    cors: (request) => {
      const origin = request.headers.get('origin');
      return origin && guard.allowsOrigin(origin, request.headers.get('host') ?? undefined)
        ? { origin: [origin], credentials: true }
        : false;
    },
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
    parserAndValidationCache: boundedParserCache(),
    // Compiled queries: large map reads execute several times faster than with graphql-js. Subscriptions and
    // documents of several operations run through graphql-js (see compilesWithJit).
    plugins: [
      armorPlugin({ hideSchema }),
      useNoInternalDetails(),
      ...(hideSchema ? [useHiddenSchema()] : []),
      useGraphQlJit(
        {},
        { cache: createCompiledQueryCache(), enableIf: compilesWithJit, onError: (result) => logError(result.errors) },
      ),
      useExecutionTimeout(options.executionTimeoutMs ?? 10_000),
      useRevocableSubscriptions(revocations),
      ...graphqlMetricsPlugins(metrics),
      ...useSseSingleConnection(),
    ],
    context: async (initial) => {
      if (initial.access) return contextFor(initial.access);
      try {
        const token = parseBearer(initial.request.headers.get('authorization'));
        return contextFor(await resolveAccess(token, identity));
      } catch (error) {
        throw toGraphQLError(error);
      }
    },
  });

  const mcpContext = (access: Access): McpContext => ({
    commands: { db, bus, viewer: access.viewer, scope: access.scope, onCommitted },
    runs,
    consultations,
    notes,
    logError,
  });
  const mcp = createMcpHttpHandler({ identity, contextFor: mcpContext, logError, maxBodyBytes });
  const web = options.webHandler;
  const queue = createFairQueue(options.maxConcurrentRequests ?? 8);
  // Repeated map reads are answered from stored bytes before Yoga, keyed by the map's lastSeq read in the same
  // request; the token is looked up in the token cache without waiting when it is there.
  const bearer = createBearerParser();
  const known = { tokens, localUser: local.user };
  const responses = new MapResponseCache({
    db,
    access: (req) => {
      const token = bearer(req.headers.authorization);
      return (token && tokens.peek(token)) || resolveAccess(token, identity);
    },
    accessNow: (req) => accessNow(bearer(req.headers.authorization), known),
    onServed: metrics.storedAnswer,
    endpoint: yoga.graphqlEndpoint,
  });
  // A stored answer known at once, sent in this tick (see MapResponseCache.serveStored); true when the request was
  // answered. A failure is logged and the request takes the ordinary path, unless its answer had begun.
  const serveStoredNow = (req: IncomingMessage, res: ServerResponse, body: Buffer | undefined) => {
    try {
      return responses.serveStored(req, res, body);
    } catch (error) {
      logError(error);
      if (!res.headersSent) return false;
      res.destroy();
      return true;
    }
  };
  // GraphQL over HTTP: a POST's body is read here, bounded, and handed to Yoga (as body-parser middleware would).
  // Map reads, by POST or by GET, are answered from stored bytes when they can be (`cached`; a GET has been offered
  // to `serveStored` already). A `stream` request (SSE) bypasses the queue: a subscription stays open.
  const serveGraphQL = async (req: IncomingMessage, res: ServerResponse, stream: boolean, cached: boolean) => {
    const serve = () => (stream ? yoga(req, res) : queue(() => yoga.requestListener(req, res)));
    let body: Buffer | undefined;
    if (req.method === 'POST') {
      try {
        body = await readBody(req, maxBodyBytes);
        (req as IncomingMessage & { body?: Buffer }).body = body;
      } catch (error) {
        if (!(error instanceof BodyTooLargeError)) return void res.destroy();
        res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
        return void res.end(
          JSON.stringify({ errors: [{ message: error.message, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }),
        );
      }
    }
    if (cached && (req.method === 'POST' || req.method === 'GET')) {
      try {
        if (req.method === 'POST' && serveStoredNow(req, res, body)) return;
        // (An unnamed function: tsx names every named one with Object.defineProperty each time it is made.)
        if (await responses.serve(req, res, body, () => queue(() => computeThrough(yoga.fetch, req, body)))) return;
      } catch (error) {
        logError(error);
        if (res.headersSent) return void res.destroy();
      }
    }
    return serve();
  };
  const ops = createOpsRoutes({
    db,
    bus,
    metrics,
    publicMetrics: options.metricsToken ? { token: options.metricsToken } : options.requireToken ? 'closed' : 'open',
  });
  const opsServer = options.metricsPort === undefined ? null : createOpsServer(ops);
  let metricsUrl: string | null = null;
  const notesRoute = createNotesRoute({ db, notes, identity, logError });
  const server = createServer((req, res) => {
    const api = isMcpRequest(req.url) || isNotesRequest(req.url) || !web || !!req.url?.startsWith(yoga.graphqlEndpoint);
    const refusal = guard.check(req, api);
    if (refusal) return guard.refuse(res, refusal);
    if (ops.handle(req, res)) return;
    if (isNotesRequest(req.url)) return void notesRoute(req, res);
    if (isMcpRequest(req.url)) return void mcp(req, res);
    if (api) {
      // Subscriptions over SSE stay open: they bypass the queue. A client that accepts a stream as well as JSON
      // (urql, so every browser query) still gets map reads from stored bytes.
      const accept = req.headers.accept ?? '';
      const stream = accept.includes('text/event-stream');
      const cached = !stream || /application\/(graphql-response\+)?json/.test(accept);
      // A GET's stored answer known at once is sent here, in this tick: no promise, nothing made for the other paths.
      if (cached && req.method === 'GET' && serveStoredNow(req, res, undefined)) return;
      return void serveGraphQL(req, res, stream, cached);
    }
    web(req, res, () => {
      res.statusCode = 404;
      res.end('Not found');
    });
  });
  const wss = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    // A cross-site page may open a WebSocket to any address: the upgrade is refused unless the guard allows it.
    verifyClient: ({ req }, done) => {
      const refusal = guard.check(req, true);
      if (refusal) done(false, refusal.status, refusal.message);
      else done(true);
    },
  });
  const viewers = new WeakMap<object, Access>();
  const wsServer = useServer(
    {
      onConnect: async (ctx: Context<Record<string, unknown>, Extra>) => {
        const params = ctx.connectionParams ?? {};
        const token = parseBearer(params.authorization ?? params.Authorization ?? params.token);
        try {
          const access = await resolveAccess(token, identity);
          viewers.set(ctx, access);
          // Revoking the token (on any instance) or its expiry closes its WebSockets (4403 Forbidden, graphql-ws'
          // own code), once their subscriptions have sent their last error and their `complete`: graphql-ws queues
          // that message on the socket in the same job as the subscription's end, so the close frame waits for the
          // next turn of the event loop and follows it (the client sees the subscription complete, not cut off).
          const socket = ctx.extra.socket;
          const closeAfterComplete = () => void setImmediate(() => socket.close(4403, 'Forbidden'));
          const untrack = revocations.track(access, closeAfterComplete, { last: true });
          socket.once('close', untrack);
          return true;
        } catch (error) {
          // A missing or unknown token is refused (graphql-ws closes with 4403); anything else is also logged.
          if (!(error instanceof DomainError)) logError(error);
          return false;
        }
      },
      execute: (args: { rootValue: { execute: (a: unknown) => unknown } }) => args.rootValue.execute(args),
      subscribe: (args: { rootValue: { subscribe: (a: unknown) => unknown } }) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx: Context<Record<string, unknown>, Extra>, _id: string, params: SubscribePayload) => {
        const access = viewers.get(ctx)!;
        // Between its token's expiry and the socket's close, nothing more is run with it.
        if (access.expiresAt && access.expiresAt <= new Date()) {
          return [
            new GraphQLError(TOKEN_ENDED.EXPIRED, { extensions: { code: 'UNAUTHENTICATED', reason: 'EXPIRED' } }),
          ];
        }
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
          access,
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
    consultations,
    model: modelInfo,
    server,
    localUser: local.user,
    localToken: local.token,
    mcpContext,
    resolveAccess: (token) => resolveAccess(token, identity),
    revocations,
    metrics,
    metricsUrl: () => metricsUrl,
    url: () => baseUrl,
    start: async (port = 0, host = '127.0.0.1') => {
      if (opsServer) metricsUrl = await opsServer.start(options.metricsPort ?? 0, options.metricsHost ?? '127.0.0.1');
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
          resolve(baseUrl);
        });
      });
    },
    async stop() {
      await opsServer?.stop();
      clearInterval(expiry);
      clearInterval(recovery);
      stopGapWatch();
      // A consultation turn in progress is released: still busy in the database, the next start runs it again.
      await consultations.conductor.releaseAll();
      // Let drives in progress reach their next checkpoint; a waiting run needs nothing (it is in the database).
      await Promise.race([engine.idle(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await wsServer.dispose();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await bus.close();
      if (!options.db) await db.close();
    },
  };
}
