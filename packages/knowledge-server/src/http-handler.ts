import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveStatelessMcp } from '@thinkingmap/mcp-http';
import { createKnowledgeServer } from './create-knowledge-server.ts';
import type { KnowledgeIndex } from './knowledge-index.ts';

/**
 * A Node request handler serving the knowledge tools over Streamable HTTP in stateless mode: each POST gets
 * its own MCP server and transport, so there is no session to expire and a client that reconnects after a
 * restart of the process just works. GET (server-initiated stream) and DELETE (session end) are refused
 * with 405, as the specification allows for servers without sessions. Mount it at any path. A request that
 * fails answers `Unexpected error.`; its cause goes to `onError` (the process's stderr by default).
 */
export function createKnowledgeHttpHandler(
  index: KnowledgeIndex,
  onError: (error: unknown) => void = (error) => console.error('[knowledge-server] request failed:', error),
) {
  return (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    serveStatelessMcp(req, res, () => createKnowledgeServer(index), { onError });
}
