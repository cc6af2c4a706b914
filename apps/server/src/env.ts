import { z } from 'zod';

/** A comma-separated list. */
const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** The server's configuration, read once from the environment. Every variable is optional. */
export const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z.string().optional(),
    REDIS_URL: z.string().optional(),
    /** Minutes a question waits for the person before its run goes on with what it has. */
    TM_QUESTION_TTL_MINUTES: z.coerce.number().positive().default(30),
    /** Questions one run may ask the person. */
    TM_MAX_QUESTIONS: z.coerce.number().int().min(0).max(20).default(3),
    /** Finished runs per map whose checkpoints are kept (their steps can be inspected); older ones are pruned. */
    TM_RUN_CHECKPOINTS_KEPT: z.coerce.number().int().min(0).max(1000).default(20),
    TM_REQUIRE_TOKEN: z
      .enum(['0', '1', 'true', 'false'])
      .default('0')
      .transform((value) => value === '1' || value === 'true'),
    /** Host names answered besides localhost and IP addresses (comma-separated; `*` for any). */
    TM_ALLOWED_HOSTS: list,
    /** Origins whose pages may call the API besides the server's own (comma-separated, `https://name[:port]`). */
    TM_ALLOWED_ORIGINS: list,
    /** Introspection, GraphiQL and field suggestions: off when tokens are required, unless set to 1. */
    TM_INTROSPECTION: z.enum(['0', '1', 'true', 'false']).optional(),
    /** Largest request body, in bytes (1 MB). */
    TM_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    /** Queries running longer are stopped and answered with a time-limit error (10 s). */
    TM_QUERY_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /** Subscriptions open at once on one graphql-ws connection (100). */
    TM_SUBSCRIPTIONS_PER_CONNECTION: z.coerce.number().int().positive().default(100),
    /** Subscriptions open at once with one token, over every transport and connection (1,000). */
    TM_SUBSCRIPTIONS_PER_TOKEN: z.coerce.number().int().positive().default(1_000),
    /** Queries resolving more objects (a list counts its length) are answered with an object-limit error (50,000). */
    TM_QUERY_MAX_OBJECTS: z.coerce.number().int().positive().default(50_000),
    /**
     * This instance's stable name: after a restart it resumes at once the runs it left RUNNING. Must differ between
     * instances sharing a database (default: host name, HOST and PORT).
     */
    TM_INSTANCE_ID: z.string().optional(),
    /** The token the stdio MCP command acts with (the local user when unset). */
    TM_TOKEN: z.string().optional(),
    /** A separate port serving /metrics, /healthz and /readyz without a token (on TM_METRICS_HOST, 127.0.0.1). */
    TM_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    TM_METRICS_HOST: z.string().default('127.0.0.1'),
    /** A bearer token that opens /metrics on the API's port when tokens are required. */
    TM_METRICS_TOKEN: z.string().min(16).optional(),
    /** MCP servers file for knowledge retrieval; else a repo-root mcp-servers.json, else the built-in server. */
    TM_MCP_CONFIG: z.string().optional(),
    /**
     * Divergent `webSearch` through an HTTP search API: `GET <url>?q=…&format=json` answering
     * `{ results: [{ title, url, content }] }` (SearXNG's JSON API). Unset (and no TM_WEB_SEARCH_MCP_CONFIG): not offered.
     */
    TM_WEB_SEARCH_URL: z.url().optional(),
    /** Sent as `Authorization: Bearer …` to TM_WEB_SEARCH_URL. */
    TM_WEB_SEARCH_KEY: z.string().optional(),
    /** Divergent `webSearch` through MCP servers offering a search tool (a servers file like TM_MCP_CONFIG). */
    TM_WEB_SEARCH_MCP_CONFIG: z.string().optional(),
    /** Where consultation notes are written, one folder per map (default `.data/notes`). */
    TM_NOTES_DIR: z.string().optional(),
    /** Turns of a consultation before earlier messages are summarised (6). */
    TM_CONSULTATION_COMPRESS_AFTER: z.coerce.number().int().min(1).max(100).optional(),
  })
  .parse(process.env);
