import { createServer } from 'node:http';
import { join } from 'node:path';
import { createModelFromEnv } from '@thinkingmap/agent-core';
import { openDatabase, repoDir } from '@thinkingmap/db';
import { createRequestIdentity } from './app-identity.ts';
import type { App, AppOptions } from './app-options.ts';
import { startServices } from './app-services.ts';
import { ensureLocalUser } from './auth/local-user.ts';
import { useRevocableSubscriptions } from './auth/revocable-subscriptions.ts';
import { TokenRevocations } from './auth/token-revocations.ts';
import { createTokenResolver, createTokenUseRecorder } from './auth/tokens.ts';
import { type IdentityOptions, resolveAccess } from './auth/viewer.ts';
import type { Access } from './commands/access.ts';
import type { MapEvent } from './commands/map-event.ts';
import { createNotesRoute, isNotesRequest } from './consultations/notes-route.ts';
import { createEventBus } from './events/event-bus.ts';
import { ReplayTurns } from './events/replay-turns.ts';
import { DEFAULT_MAX_BODY_BYTES } from './http/body-limit.ts';
import { createGraphQLHttpHandler } from './http/graphql-http.ts';
import { attachGraphQLWs } from './http/graphql-ws.ts';
import { createGraphQLYoga } from './http/graphql-yoga.ts';
import { createLifecycle } from './http/lifecycle.ts';
import { createRequestGuard } from './http/request-guard.ts';
import { createRouter } from './http/router.ts';
import { DEFAULT_SUBSCRIPTION_CAPS, useSubscriptionCaps } from './http/subscription-caps.ts';
import { createLoaders } from './maps/loaders.ts';
import { MapReadCache } from './maps/map-read-cache.ts';
import type { McpContext } from './mcp/mcp-context.ts';
import { createMcpHttpHandler, isMcpRequest } from './mcp/mcp-http-handler.ts';
import { graphqlMetricsPlugins } from './ops/graphql-metrics.ts';
import { InstrumentedModel } from './ops/instrumented-model.ts';
import { ServerMetrics } from './ops/metrics.ts';
import { createOpsRoutes } from './ops/ops-routes.ts';
import { createOpsServer } from './ops/ops-server.ts';
import type { GraphQLContext, ModelInfo } from './schema/context.ts';
import { schema } from './schema/schema.ts';

export type { App, AppOptions } from './app-options.ts';

/** Builds the server (GraphQL over HTTP, SSE and WebSocket, MCP, notes, web, metrics on one port) without starting it. */
export async function buildApp(options: AppOptions = {}): Promise<App> {
  const log = options.log ?? (() => {});
  const logError = options.logError ?? ((error: unknown) => console.error('[thinkingmap] unexpected error:', error));
  const db = options.db ?? (await openDatabase({ url: options.databaseUrl, log }));
  const metrics = new ServerMetrics(db, logError);
  const onPublished = (events: readonly MapEvent[]) => metrics.countPublished(events);
  const bus = createEventBus({ redisUrl: options.redisUrl, channel: options.redisChannel, onPublished, logError });
  const tokenFile = options.localTokenFile === undefined ? join(repoDir, '.data/local-token') : options.localTokenFile;
  const local = options.requireToken ? { user: null, token: null } : await ensureLocalUser(db, tokenFile ?? undefined);
  const tokens = createTokenResolver(db.read, { onUse: createTokenUseRecorder(db, logError) });
  const identity: IdentityOptions = { tokens, localUser: local.user };
  const requestIdentity = createRequestIdentity({ tokens, localUser: local.user });
  const revocations = new TokenRevocations(bus, tokens);
  const guard = createRequestGuard(options.guard);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const model = new InstrumentedModel(options.model ?? createModelFromEnv(), metrics);
  const { commands, engine, notes, consultations, drain } = await startServices(
    { db, bus, metrics, model, logError },
    options,
  );
  const modelInfo: ModelInfo = {
    offline: model.offline,
    label: model.label,
    capabilities: () => model.capabilities(),
  };
  const cache = new MapReadCache();
  metrics.watchCache('map_rows', () => cache.held());
  const replay = new ReplayTurns();
  const services = { runs: engine, consultations, notes };
  const commandsOf = (access: Access) => ({ ...commands, viewer: access.viewer, scope: access.scope });
  const contextFor = (access: Access): GraphQLContext => ({
    ...services,
    db,
    bus,
    viewer: access.viewer,
    access,
    revocations,
    cache,
    replay,
    model: modelInfo,
    commands: commandsOf(access),
    loaders: createLoaders(db.read),
  });
  const mcpContext = (access: Access): McpContext => ({ ...services, commands: commandsOf(access), logError });

  const caps = { ...DEFAULT_SUBSCRIPTION_CAPS, ...options.subscriptionCaps };
  const plugins = [
    useSubscriptionCaps(caps),
    useRevocableSubscriptions(revocations),
    ...graphqlMetricsPlugins(metrics),
  ];
  const { executionTimeoutMs, maxQueryObjects, maxConcurrentRequests } = options;
  const hideSchema = options.hideSchema ?? !!options.requireToken;
  const yogaOptions = { schema, identity: requestIdentity, contextFor, guard, hideSchema, plugins, logError };
  const yoga = createGraphQLYoga({ ...yogaOptions, executionTimeoutMs, maxQueryObjects });
  const events = options.mapVersionsFromEvents === false ? undefined : bus;
  const mapReads = { db, events, onServed: metrics.storedAnswer, watch: metrics.watchCache, logError };
  const graphql = createGraphQLHttpHandler({
    yoga,
    mapReads,
    identity: requestIdentity,
    maxBodyBytes,
    maxConcurrentRequests,
  });
  const metricsAccess = options.metricsToken ? { token: options.metricsToken } : undefined;
  const publicMetrics = metricsAccess ?? (options.requireToken ? 'closed' : 'open');
  const ops = createOpsRoutes({ db, bus, metrics, publicMetrics });
  const routes = [
    { matches: isNotesRequest, handle: createNotesRoute({ db, notes, identity, logError }) },
    {
      matches: isMcpRequest,
      handle: createMcpHttpHandler({ identity, contextFor: mcpContext, logError, maxBodyBytes }),
    },
  ];
  const web = options.webHandler;
  const server = createServer(
    createRouter({ guard, ops, routes, graphqlEndpoint: yoga.graphqlEndpoint, graphql, web }),
  );
  const wsOptions = { server, yoga, guard, identity: requestIdentity, revocations, logError };
  const stopWebSockets = attachGraphQLWs({ ...wsOptions, perConnection: caps.perConnection });

  const side = options.metricsPort === undefined ? null : { listener: createOpsServer(ops), port: options.metricsPort };
  const lifecycle = createLifecycle({
    server,
    side: side && { ...side, host: options.metricsHost ?? '127.0.0.1' },
    draining: [...drain, stopWebSockets],
    closing: [() => bus.close(), () => (options.db ? undefined : db.close())],
  });

  return {
    db,
    bus,
    engine,
    consultations,
    server,
    mcpContext,
    revocations,
    metrics,
    model: modelInfo,
    localUser: local.user,
    localToken: local.token,
    resolveAccess: (token) => resolveAccess(token, identity),
    metricsUrl: lifecycle.sideUrl,
    url: lifecycle.url,
    start: lifecycle.start,
    stop: lifecycle.stop,
  };
}
