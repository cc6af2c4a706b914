import { OfflineModel } from '@thinkingmap/agent-core';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, type TestDatabase } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../../src/app.ts';
import { snapshot } from '../helpers/db-snapshot.ts';
import { postGraphQL, send } from '../helpers/http-request.ts';

const EVIL = 'https://evil.example';
const MAPS = '{ maps { id title } }';
const CREATE = 'mutation { createMap(input: { title: "planted" }) { __typename } }';

/** Opens a graphql-ws socket from `origin`; resolves with the upgrade's HTTP status (101 when it was accepted). */
function upgradeStatus(url: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', { origin });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', (error) => {
      if (!(error as Error).message.includes('Unexpected server response')) reject(error);
    });
  });
}

describe('the embedded local user, reached from other sites', () => {
  let testDb: TestDatabase;
  let db: Database;
  let app: App;
  let base: string;
  let endpoint: string;
  let own: string;
  let mapId: string;

  beforeAll(async () => {
    testDb = await createTestDatabase('sqlite');
    db = await testDb.open();
    app = await buildApp({
      db,
      localTokenFile: null,
      model: new OfflineModel(),
      guard: { allowedOrigins: ['https://dashboard.example'], allowedHosts: ['thinkingmap.example'] },
      webHandler: (_req, res) => res.end('<html>workspace</html>'),
    });
    base = await app.start(0);
    endpoint = `${base}/graphql`;
    own = base;
    const created = await postGraphQL(
      endpoint,
      'mutation { createMap(input: { title: "mine" }) { ... on Map { id } } }',
    );
    mapId = JSON.parse(created.body).data.createMap.id;
  });
  afterAll(async () => {
    await app?.stop();
    await db?.close();
    await testDb?.drop();
  });

  it("should answer the server's own pages and tools with no origin, and its own origin", async () => {
    expect(JSON.parse((await postGraphQL(endpoint, MAPS)).body).data.maps).toHaveLength(1);
    const sameOrigin = await postGraphQL(endpoint, MAPS, { origin: own, 'sec-fetch-site': 'same-origin' });
    expect(JSON.parse(sameOrigin.body).data.maps).toHaveLength(1);
    expect((await send(`${base}/`)).body).toContain('workspace');
  });

  it('should refuse a query and a mutation from another site, without CORS headers, changing nothing', async () => {
    const before = await snapshot(db);
    for (const query of [MAPS, CREATE]) {
      const response = await postGraphQL(endpoint, query, { origin: EVIL });
      expect(response.status).toBe(403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.body).not.toContain('mine');
    }
    const preflight = await send(endpoint, {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(await snapshot(db)).toBe(before);
  });

  it('should refuse a cross-site request that carries no Origin (an image or script tag) by its fetch metadata', async () => {
    const response = await send(`${endpoint}?query=${encodeURIComponent(MAPS)}`, {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    });
    expect(response.status).toBe(403);
    expect(response.body).not.toContain('mine');
  });

  it('should let a configured origin read the API, with CORS headers for it only', async () => {
    const response = await postGraphQL(endpoint, MAPS, { origin: 'https://dashboard.example' });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('https://dashboard.example');
    expect(JSON.parse(response.body).data.maps).toHaveLength(1);
  });

  it('should refuse a cross-site WebSocket upgrade, so no event of the map is replayed to it', async () => {
    const ws = endpoint.replace('http', 'ws');
    expect(await upgradeStatus(ws, EVIL)).toBe(403);
    expect(await upgradeStatus(ws, 'null')).toBe(403);
    expect(app.bus.listenerCount(mapId)).toBe(0);
    expect(await upgradeStatus(ws, own)).toBe(101);
  });

  it('should refuse a foreign Host (DNS rebinding) on the API and the web pages alike', async () => {
    const port = new URL(base).port;
    for (const host of [`evil.example:${port}`, `localhost.evil.example:${port}`]) {
      for (const url of [endpoint, `${base}/`, `${base}/mcp`]) {
        const response = await send(url, { headers: { host } });
        expect(response.status, `${url} with Host ${host}`).toBe(421);
        expect(response.body).not.toContain('workspace');
      }
      // Rebinding makes the page's origin the attacker's name too: same origin, still refused by its host.
      const rebound = await postGraphQL(endpoint, MAPS, { host, origin: `http://${host}` });
      expect(rebound.status).toBe(421);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`, 'thinkingmap.example']) {
      expect((await send(`${base}/`, { headers: { host } })).status, host).toBe(200);
    }
  });

  it('should refuse MCP from a foreign Origin, as the MCP specification requires', async () => {
    const before = await snapshot(db);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_map', arguments: { problem: 'planted by another site' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const refused = await send(`${base}/mcp`, { method: 'POST', headers: { ...headers, origin: EVIL }, body });
    expect(refused.status).toBe(403);
    expect(await snapshot(db)).toBe(before);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const own = await send(`${base}/mcp`, { method: 'POST', headers: { ...headers, origin: base }, body: list });
    expect(own.status).toBe(200);
  });
});
