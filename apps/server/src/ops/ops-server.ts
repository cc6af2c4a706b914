import { createServer, type Server } from 'node:http';
import type { OpsRoutes } from './ops-routes.ts';

/** The private operators' listener (`TM_METRICS_PORT`): /metrics, /healthz and /readyz, nothing else. */
export interface OpsServer {
  /** Listens; resolves with the base URL. */
  start(port: number, host: string): Promise<string>;
  stop(): Promise<void>;
}

/** A plain node:http server answering the operators' routes and 404 for anything else (no GraphQL, no web). */
export function createOpsServer(routes: OpsRoutes): OpsServer {
  const server: Server = createServer((req, res) => {
    if (routes.handlePrivate(req, res)) return;
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found\n');
  });
  return {
    start: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          const bound = typeof address === 'object' && address !== null ? address.port : port;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${bound}`);
        });
      }),
    stop: () =>
      new Promise((resolve) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
