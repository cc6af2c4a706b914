import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestGuard } from './request-guard.ts';

/** A Node request handler. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A route of the API besides GraphQL (MCP, notes): the origin rule applies to it. */
export interface ApiRoute {
  matches(url: string | undefined): boolean;
  handle: Handler;
}

/** Options of {@link createRouter}. */
export interface RouterOptions {
  guard: RequestGuard;
  /** The operators' routes (/metrics, /healthz, /readyz): true when answered. */
  ops: { handle(req: IncomingMessage, res: ServerResponse): boolean };
  routes: readonly ApiRoute[];
  /** The GraphQL endpoint's path, and its handler (HTTP and SSE). */
  graphqlEndpoint: string;
  graphql: Handler;
  /** Serves everything else (the built web workspace); without it, everything else is GraphQL's to answer. */
  web?: ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) | null;
}

/**
 * The HTTP server's one request listener: the guard first (hosts, and origins for the API), then the operators'
 * routes, the API's own routes, GraphQL, and the web workspace, in that order.
 */
export function createRouter(options: RouterOptions): Handler {
  const { guard, ops, routes, graphqlEndpoint, graphql, web } = options;
  const notFound = (res: ServerResponse) => () => {
    res.statusCode = 404;
    res.end('Not found');
  };
  return (req, res) => {
    const route = routes.find((r) => r.matches(req.url));
    const api = !!route || !web || !!req.url?.startsWith(graphqlEndpoint);
    const refusal = guard.check(req, api);
    if (refusal) return guard.refuse(res, refusal);
    if (ops.handle(req, res)) return;
    if (route) return route.handle(req, res);
    if (api || !web) return graphql(req, res);
    web(req, res, notFound(res));
  };
}
