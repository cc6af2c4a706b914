import * as z from 'zod';

/** The SDK's own request timeout (60 s) is far too long for an agent step; this is ours. */
export const DEFAULT_TIMEOUT_MS = 15_000;

const timeouts = {
  /** Longest wait for one tool call or tool listing, in milliseconds. */
  timeoutMs: z.number().int().positive().optional(),
  /** Longest wait for the MCP handshake (process start or HTTP connect included), in milliseconds. */
  connectTimeoutMs: z.number().int().positive().optional(),
  /** A disabled server is listed but never started. */
  disabled: z.boolean().optional(),
};

/** A server the manager starts as a child process and talks to over its stdin/stdout. */
export const stdioServerSchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Added to a small safe default environment (PATH, HOME, ...), not to the whole parent environment. */
  env: z.record(z.string(), z.string()).default({}),
  /** Working directory; relative paths are resolved against the config file's folder. */
  cwd: z.string().optional(),
  ...timeouts,
});

/** A server reached over Streamable HTTP. */
export const httpServerSchema = z.object({
  type: z.literal('http').optional(),
  url: z.url(),
  /** Sent with every request, e.g. `{ "Authorization": "Bearer ${WIKI_TOKEN}" }`. */
  headers: z.record(z.string(), z.string()).default({}),
  ...timeouts,
});

/** The backoff between reconnect attempts to a server that is down. */
export const reconnectSchema = z.object({
  initialDelayMs: z.number().int().nonnegative().default(1_000),
  maxDelayMs: z.number().int().nonnegative().default(60_000),
});

/**
 * The MCP servers file. `mcpServers` follows the shape most MCP hosts use (a name per server; `command` for
 * stdio, `url` for Streamable HTTP), so an existing entry can be pasted in; the top-level timeouts are
 * defaults that each server may override.
 */
export const mcpServersConfigSchema = z.object({
  timeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  connectTimeoutMs: z.number().int().positive().default(10_000),
  reconnect: reconnectSchema.default({ initialDelayMs: 1_000, maxDelayMs: 60_000 }),
  mcpServers: z.record(z.string().min(1), z.union([stdioServerSchema, httpServerSchema])).default({}),
});

/** A validated servers file, defaults applied. */
export type McpServersConfig = z.output<typeof mcpServersConfigSchema>;
/** What a servers file may contain, before defaults. */
export type McpServersConfigInput = z.input<typeof mcpServersConfigSchema>;
/** One validated server entry. */
export type McpServerEntry = McpServersConfig['mcpServers'][string];
/** A validated stdio entry. */
export type StdioServerEntry = z.output<typeof stdioServerSchema>;
/** A validated Streamable HTTP entry. */
export type HttpServerEntry = z.output<typeof httpServerSchema>;

/** Whether `entry` is a stdio server. */
export function isStdioEntry(entry: McpServerEntry): entry is StdioServerEntry {
  return 'command' in entry;
}
