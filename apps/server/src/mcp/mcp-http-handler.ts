import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { User } from '@thinkingmap/db';
import { type IdentityOptions, parseBearer, resolveViewer } from '../auth/viewer.ts';
import { DomainError } from '../errors/domain-errors.ts';
import { createThinkingMapMcpServer } from './create-mcp-server.ts';
import type { McpContext } from './mcp-context.ts';

/** The path the API server serves MCP on. */
export const MCP_PATH = '/mcp';

/** Whether a request is for the MCP endpoint (query string allowed). */
export const isMcpRequest = (url: string | undefined) => url === MCP_PATH || !!url?.startsWith(`${MCP_PATH}?`);

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** What the MCP endpoint needs from the API server. */
export interface McpHttpOptions {
  identity: IdentityOptions;
  /** The context of the tools for a viewer (same command layer and runs as GraphQL). */
  contextFor(viewer: User): McpContext;
  logError?: (error: unknown) => void;
}

/**
 * Serves ThinkingMap's MCP server over Streamable HTTP, stateless: every POST is authorised by the same
 * bearer tokens as GraphQL (401 with `WWW-Authenticate: Bearer` when the token is missing and required, or
 * invalid), then gets its own MCP server acting as that viewer. No session means nothing to expire and
 * nothing to share between server instances; GET and DELETE answer 405 as the specification allows.
 */
export function createMcpHttpHandler(options: McpHttpOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let viewer: User;
    try {
      viewer = await resolveViewer(parseBearer(req.headers.authorization), options.identity);
    } catch (error) {
      if (error instanceof DomainError)
        return refuse(res, 401, error.message, { 'www-authenticate': 'Bearer realm="thinkingmap"' });
      options.logError?.(error);
      return refuse(res, 500, 'Unexpected error.');
    }
    if (req.method !== 'POST')
      return refuse(res, 405, 'Method not allowed: this MCP endpoint is stateless.', { allow: 'POST' });
    const server = createThinkingMapMcpServer(options.contextFor(viewer));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      options.logError?.(error);
      if (!res.headersSent) refuse(res, 500, 'Unexpected error.');
    }
  };
}
