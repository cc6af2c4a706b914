import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { KnowledgePort, ModelPort } from '@thinkingmap/agent-core';
import type { Database, User } from '@thinkingmap/db';
import type { TokenRevocations } from './auth/token-revocations.ts';
import type { Access } from './commands/access.ts';
import type { MapEvent } from './commands/map-event.ts';
import type { ConsultationService } from './consultations/consultation-service.ts';
import type { EventBus } from './events/event-bus.ts';
import type { RequestGuardOptions } from './http/request-guard.ts';
import type { SubscriptionCaps } from './http/subscription-caps.ts';
import type { McpContext } from './mcp/mcp-context.ts';
import type { ServerMetrics } from './ops/metrics.ts';
import { RUN_HEARTBEAT_MS, type RunEngine, type RunSettings } from './runs/run-engine.ts';
import type { ModelInfo } from './schema/context.ts';

/** The agents' settings when {@link AppOptions.runSettings} leaves them out. */
export const DEFAULT_RUN_SETTINGS: RunSettings = {
  questionTtlMs: 30 * 60_000,
  maxQuestions: 3,
  heartbeatMs: RUN_HEARTBEAT_MS,
  maxMissedHeartbeats: 3,
  checkpointWindow: 20,
};

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
  /**
   * Whether stored map answers are served by the map versions this instance's events tell (default true: a hit reads
   * no row). False: every map read reads its map's row, for instances that share a database but not their events
   * (no Redis), which would otherwise learn of each other's changes only after a version's 5 s bound.
   */
  mapVersionsFromEvents?: boolean;
  /** GraphQL requests executed at once; more wait in arrival order (default 8). */
  maxConcurrentRequests?: number;
  /**
   * Who may reach the server from a browser (hosts and origins besides the server's own), see
   * http/request-guard.ts.
   */
  guard?: RequestGuardOptions;
  /** Hide the schema: no GraphiQL, no introspection, no field suggestions, no parser messages (default: requireToken). */
  hideSchema?: boolean;
  /** Largest request body read, in bytes (1 MB). */
  maxBodyBytes?: number;
  /** Queries running longer are answered with a time-limit error (10 s). */
  executionTimeoutMs?: number;
  /**
   * Subscriptions open at once per graphql-ws connection (100; TM_SUBSCRIPTIONS_PER_CONNECTION) and per token over
   * every transport (1,000; TM_SUBSCRIPTIONS_PER_TOKEN); one more is refused with SUBSCRIPTION_LIMIT.
   */
  subscriptionCaps?: Partial<SubscriptionCaps>;
  /** Queries resolving more objects (a list counts its length) are answered with an object-limit error (50,000). */
  maxQueryObjects?: number;
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
  /** What drives agent runs; the run commands of runs/ take it (tests wait on `engine.idle()`). */
  engine: RunEngine;
  /** Consultations and their turns (tests wait on their outcomes). */
  consultations: ConsultationService;
  /** Which model the agents use (offline when no OPENAI_* variables are set). */
  model: ModelInfo;
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
