import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequestGuard } from './request-guard.ts';
import { createRouter, type Handler, type RouterOptions } from './router.ts';

/** A handler that answers with its own name, so a response tells which part of the server took the request. */
const named =
  (name: string): Handler =>
  (_req, res) =>
    void res.end(name);

let server: Server | undefined;
afterEach(() => server?.close());

/** Starts a server whose every part answers with its name; `web` as given (null: no web workspace). */
async function started(web: RouterOptions['web']) {
  server = createServer(
    createRouter({
      guard: createRequestGuard(),
      ops: { handle: (req, res) => req.url === '/metrics' && !!res.end('ops') },
      routes: [{ matches: (url) => !!url?.startsWith('/mcp'), handle: named('mcp') }],
      graphqlEndpoint: '/graphql',
      graphql: named('graphql'),
      web,
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return { status: response.status, body: await response.text() };
  };
}

describe('router', () => {
  it('should send each path to its part: operators, API routes, GraphQL, the web workspace', async () => {
    const get = await started((_req, res, next) => (_req.url === '/' ? void res.end('web') : next()));
    expect(await get('/metrics')).toEqual({ status: 200, body: 'ops' });
    expect(await get('/mcp')).toEqual({ status: 200, body: 'mcp' });
    expect(await get('/graphql?query=%7B__typename%7D')).toEqual({ status: 200, body: 'graphql' });
    expect(await get('/')).toEqual({ status: 200, body: 'web' });
    expect(await get('/nowhere')).toEqual({ status: 404, body: 'Not found' });
  });

  it('should leave everything else to GraphQL when there is no web workspace', async () => {
    const get = await started(null);
    expect((await get('/graphql-elsewhere')).body).toBe('graphql');
  });

  it('should refuse a cross-site API request before any part sees it, and let the same page through', async () => {
    const get = await started(named('web'));
    const crossSite = { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' };
    expect((await get('/graphql', crossSite)).status).toBe(403);
    expect((await get('/mcp', crossSite)).status).toBe(403);
    // The web workspace's pages are not API: the origin rule does not apply to them.
    expect(await get('/', crossSite)).toEqual({ status: 200, body: 'web' });
  });
});
