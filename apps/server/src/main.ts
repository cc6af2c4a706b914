import { hostname } from 'node:os';
import { buildApp } from './app.ts';
import { env } from './env.ts';
import { loadWebHandler } from './http/web-handler.ts';
import { startKnowledge } from './runs/start-knowledge.ts';
import { startWebSearch } from './runs/start-web-search.ts';

const webHandler = await loadWebHandler();
const log = (message: string) => console.log(`[thinkingmap] ${message}`);
// Knowledge for the agents' explore step: a server that is down is logged, never a reason not to start.
const knowledge = await startKnowledge({ configPath: env.TM_MCP_CONFIG, log });
// Web search for divergent tasks, only when the operator configured a provider (an HTTP API, or MCP servers).
const webSearch = await startWebSearch({
  url: env.TM_WEB_SEARCH_URL,
  apiKey: env.TM_WEB_SEARCH_KEY,
  mcpConfigPath: env.TM_WEB_SEARCH_MCP_CONFIG,
  log,
});
const app = await buildApp({
  webHandler,
  databaseUrl: env.DATABASE_URL,
  redisUrl: env.REDIS_URL,
  requireToken: env.TM_REQUIRE_TOKEN,
  guard: { allowedHosts: env.TM_ALLOWED_HOSTS, allowedOrigins: env.TM_ALLOWED_ORIGINS },
  hideSchema: env.TM_INTROSPECTION === undefined ? undefined : !['1', 'true'].includes(env.TM_INTROSPECTION),
  maxBodyBytes: env.TM_MAX_BODY_BYTES,
  notesDir: env.TM_NOTES_DIR,
  consultationCompressAfter: env.TM_CONSULTATION_COMPRESS_AFTER,
  executionTimeoutMs: env.TM_QUERY_TIMEOUT_MS,
  maxQueryObjects: env.TM_QUERY_MAX_OBJECTS,
  subscriptionCaps: { perConnection: env.TM_SUBSCRIPTIONS_PER_CONNECTION, perToken: env.TM_SUBSCRIPTIONS_PER_TOKEN },
  metricsPort: env.TM_METRICS_PORT,
  metricsHost: env.TM_METRICS_HOST,
  metricsToken: env.TM_METRICS_TOKEN,
  // Port 0 is a new port every start: no stable identity, so runs left behind wait for their lease.
  instanceId: env.TM_INSTANCE_ID ?? (env.PORT ? `${hostname()}:${env.HOST}:${env.PORT}` : undefined),
  knowledge: knowledge?.port,
  webSearch: webSearch?.port,
  runSettings: {
    questionTtlMs: env.TM_QUESTION_TTL_MINUTES * 60_000,
    maxQuestions: env.TM_MAX_QUESTIONS,
    checkpointWindow: env.TM_RUN_CHECKPOINTS_KEPT,
  },
  log,
});
const url = await app.start(env.PORT, env.HOST);
console.log(`[thinkingmap] GraphQL API on ${url}/graphql (HTTP, SSE and WebSocket)`);
console.log(
  webHandler
    ? `[thinkingmap] web workspace on ${url}/`
    : '[thinkingmap] web workspace not built (pnpm --filter @thinkingmap/web build)',
);
console.log(
  `[thinkingmap] database: ${app.db.provider}${env.DATABASE_URL ? '' : ' (embedded file database .data/thinkingmap.db)'}`,
);
console.log(`[thinkingmap] events: ${env.REDIS_URL ? 'Redis' : 'in-process'}`);
console.log(`[thinkingmap] agents: ${app.model.label}`);
console.log(
  `[thinkingmap] MCP server on ${url}/mcp (Streamable HTTP, bearer token); stdio: pnpm --filter @thinkingmap/server mcp:stdio`,
);
if (app.metricsUrl()) console.log(`[thinkingmap] metrics on ${app.metricsUrl()}/metrics (also /healthz, /readyz)`);
if (app.localToken) console.log(`[thinkingmap] local user token (also in .data/local-token): ${app.localToken}`);

const shutdown = async () => {
  await app.stop();
  await knowledge?.close();
  await webSearch?.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
