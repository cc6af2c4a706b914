import { createServer } from 'node:http';
import { createKnowledgeHttpHandler } from './http-handler.ts';
import type { KnowledgeIndex } from './knowledge-index.ts';

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** Port to listen on; 0 picks a free one (tests). */
  port: number;
  /** Interface to bind; defaults to 127.0.0.1 so the server is not exposed by accident. */
  host?: string;
  /** The MCP endpoint's path; defaults to `/mcp`. */
  path?: string;
}

/** A running HTTP knowledge server. */
export interface RunningHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3901/mcp`. */
  url: URL;
  /** Stops accepting requests and closes open connections. */
  close(): Promise<void>;
}

/** Serves the knowledge tools over Streamable HTTP at `path`; other paths answer 404. */
export async function serveHttp(index: KnowledgeIndex, options: ServeHttpOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const handle = createKnowledgeHttpHandler(index);
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: new URL(`http://${urlHost}:${port}${path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
