import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

/** Options of {@link startHttpKnowledgeServer}. */
export interface HttpKnowledgeServerOptions {
  /** Appears in every result's path (`<name>/notes.md`) and text, so tests see who answered. */
  name: string;
  /** Headers every request must carry with exactly these values (names in lower case); otherwise 401. */
  requiredHeaders?: Record<string, string>;
}

/** A request the server received: its JSON-RPC method and its HTTP headers. */
export interface ReceivedRequest {
  method: string;
  headers: IncomingHttpHeaders;
}

/** A running in-process knowledge MCP server over Streamable HTTP (stateless). */
export interface HttpKnowledgeServer {
  /** The endpoint to configure, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Every request that reached it, refused ones included, in order. */
  requests: ReceivedRequest[];
  /** Stops listening and drops every open connection at once, as when the server's process dies. */
  kill(): void;
  /** Stops the server (idempotent). */
  close(): Promise<void>;
}

function passage(name: string, about: string) {
  return {
    path: `${name}/notes.md`,
    title: `${name} notes`,
    headings: ['Notes'],
    startLine: 3,
    endLine: 6,
    snippet: `${name} on ${about}`,
    score: 0.9,
  };
}

function knowledgeMcpServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  const readOnly = { readOnlyHint: true };
  server.registerTool(
    'knowledge_search',
    {
      inputSchema: { query: z.string(), context: z.string().optional(), max_results: z.number().default(5) },
      annotations: readOnly,
    },
    ({ query }) => ({
      content: [{ type: 'text', text: `1 result from ${name}` }],
      structuredContent: { query, results: [passage(name, query)] },
    }),
  );
  server.registerTool(
    'domain_knowledge',
    { inputSchema: { domain: z.string(), topic: z.string().optional() }, annotations: readOnly },
    ({ domain, topic }) => ({
      content: [{ type: 'text', text: `about ${domain}` }],
      structuredContent: { domain, documents: [], passages: [passage(name, topic ? `${domain}/${topic}` : domain)] },
    }),
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
}

/**
 * Starts a knowledge MCP server (`knowledge_search`, `domain_knowledge`) in this process on a free port,
 * with the SDK's real Streamable HTTP transport: for tests that check what reaches a server (headers) or
 * that take it away in the middle of a run ({@link HttpKnowledgeServer.kill}).
 */
export async function startHttpKnowledgeServer(options: HttpKnowledgeServerOptions): Promise<HttpKnowledgeServer> {
  const requests: ReceivedRequest[] = [];
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const body = await readJson(req);
    const method = (body as { method?: string } | null)?.method ?? '';
    requests.push({ method, headers: req.headers });
    const refused = Object.entries(options.requiredHeaders ?? {}).some(([key, value]) => req.headers[key] !== value);
    if (refused) return void res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
    const server = knowledgeMcpServer(options.name);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const kill = () => {
    http.close();
    http.closeAllConnections();
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    kill,
    close: () =>
      new Promise((resolve) => {
        if (!http.listening) return resolve();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
