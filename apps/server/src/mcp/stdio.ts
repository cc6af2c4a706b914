import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildApp } from '../app.ts';
import type { Access } from '../commands/access.ts';
import { env } from '../env.ts';
import { startKnowledge } from '../runs/start-knowledge.ts';
import { createThinkingMapMcpServer } from './create-mcp-server.ts';

/**
 * `pnpm --filter @thinkingmap/server mcp:stdio`: ThinkingMap's MCP server over standard input and output,
 * for an MCP host that spawns it. It opens the database itself (DATABASE_URL, else the embedded file
 * database) and acts as the user of TM_TOKEN, or as the local user when no token is given. Stdout belongs
 * to the protocol: every diagnostic goes to stderr.
 */
const log = (message: string) => process.stderr.write(`[thinkingmap-mcp] ${message}\n`);
const token = env.TM_TOKEN;
if (!token && env.TM_REQUIRE_TOKEN) {
  log('TM_REQUIRE_TOKEN is set: give the token to act with in TM_TOKEN');
  process.exit(2);
}
const knowledge = await startKnowledge({ configPath: env.TM_MCP_CONFIG, log });
const app = await buildApp({
  recoverRuns: false,
  databaseUrl: env.DATABASE_URL,
  redisUrl: env.REDIS_URL,
  // With a token there is no need for the local user; without one, act as the local user (no token file).
  requireToken: !!token,
  localTokenFile: null,
  knowledge: knowledge?.port,
  log,
  logError: (error) => log(`unexpected error: ${error instanceof Error ? error.stack : String(error)}`),
});
const access: Access | null = await app.resolveAccess(token ?? null).catch(() => null);
if (!access) {
  log('TM_TOKEN is not a valid token');
  // Nothing was started for anyone yet: leave at once (this process resumes no runs of others).
  process.exit(2);
}
const server = createThinkingMapMcpServer(app.mcpContext(access));
const transport = new StdioServerTransport();
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  // Shutting down either way: a transport that fails to close (the host already hung up) changes nothing.
  await server.close().catch(() => {});
  await app.stop();
  await knowledge?.close();
  process.exit(0);
};
transport.onclose = () => void shutdown();
process.stdin.once('end', () => void shutdown());
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
await server.connect(transport);
log(`serving over stdio as ${access.viewer.name} (${app.db.provider} database)`);
