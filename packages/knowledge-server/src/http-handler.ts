import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createKnowledgeServer } from './create-knowledge-server.ts';
import type { KnowledgeIndex } from './knowledge-index.ts';

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 405 ? { allow: 'POST' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * A Node request handler serving the knowledge tools over Streamable HTTP in stateless mode: each POST gets
 * its own MCP server and transport, so there is no session to expire and a client that reconnects after a
 * restart of the process just works. GET (server-initiated stream) and DELETE (session end) are refused
 * with 405, as the specification allows for servers without sessions. Mount it at any path.
 */
export function createKnowledgeHttpHandler(index: KnowledgeIndex) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return refuse(res, 405, 'Method not allowed: this server is stateless.');
    const server = createKnowledgeServer(index);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) refuse(res, 500, `Internal error: ${(error as Error).message}`);
    }
  };
}
