import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Answers an HTTP request with a JSON-RPC error (no id), the body MCP clients expect from a refusal. */
export function refuseJsonRpc(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Options of {@link serveStatelessMcp}. */
export interface StatelessMcpOptions {
  /** Answer with one JSON body instead of an SSE stream (the SDK's `enableJsonResponse`). Default false. */
  jsonResponse?: boolean;
  /** Told of an error while serving; the client only reads `Unexpected error.`. */
  onError?: (error: unknown) => void;
  /** The request's body, already read and parsed (by a caller that bounds its size); read from `req` otherwise. */
  parsedBody?: unknown;
}

/**
 * Serves one HTTP request with a fresh MCP server and transport, without sessions: nothing to expire, nothing
 * to share between processes, and a client that reconnects after a restart just works. GET (server-initiated
 * stream) and DELETE (session end) answer 405, as the specification allows for servers without sessions; the
 * server and transport close when the response does.
 */
export async function serveStatelessMcp(
  req: IncomingMessage,
  res: ServerResponse,
  createServer: () => McpServer,
  options: StatelessMcpOptions = {},
): Promise<void> {
  if (req.method !== 'POST')
    return refuseJsonRpc(res, 405, 'Method not allowed: this MCP endpoint is stateless.', { allow: 'POST' });
  const server = createServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: options.jsonResponse ?? false,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, options.parsedBody);
  } catch (error) {
    options.onError?.(error);
    if (!res.headersSent) refuseJsonRpc(res, 500, 'Unexpected error.');
  }
}
