import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  CREATE_API_TOKEN,
  createThinkingMapClient,
  DELETE_MAP,
  REVOKE_API_TOKEN,
  type ThinkingMapClient,
} from '@thinkingmap/client';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, logicProviders, type TestDatabase } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../src/app.ts';
import { createUserWithToken } from '../src/auth/tokens.ts';
import { nextEventOf } from './helpers/event-reached.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { fileRedisChannel } from './helpers/redis-channel.ts';
import { call } from './helpers/test-server.ts';

const providers = logicProviders;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A map read written as a client of its own would: a literal id, an alias, a named fragment. */
const literalRead = (mapId: string) => `
  query ReadIt { theMap: map(id: "${mapId}") { ... on Map { lastSeq nodes { ...N } } } }
  fragment N on Node { id question }`;
const variableRead = `query R($m: ID!) { map(id: $m) { __typename ... on Map { lastSeq nodes { id question } } ... on Error { code } } }`;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** POSTs a GraphQL request with exactly these headers and returns the raw bytes (no decompression). */
function post(url: string, body: object, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** GETs a URL with exactly these headers and returns the raw bytes (GraphQL over HTTP's GET form). */
function get(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A GraphQL request in GET form: its parameters in the query string. */
const getUrl = (base: string, query: string, variables?: object, path = '/graphql') =>
  `${base}${path}?${new URLSearchParams({ query, ...(variables && { variables: JSON.stringify(variables) }) })}`;

type ReadResult = {
  errors?: { extensions?: { code?: string } }[];
  data: {
    map?: { __typename?: string; code?: string; lastSeq: number; nodes: { question: string }[] };
    theMap?: { lastSeq: number; nodes: { question: string }[] };
  };
};

describe.each(providers)('map reads served from stored answers on %s with Redis, two instances', (provider) => {
  let testDb: TestDatabase;
  const dbs: Database[] = [];
  const apps: App[] = [];
  const clients: ThinkingMapClient[] = [];
  let alice: { token: string };
  let bob: { token: string };

  beforeAll(async () => {
    testDb = await createTestDatabase(provider);
    for (let i = 0; i < 2; i++) {
      const db = await testDb.open();
      dbs.push(db);
      const app = await buildApp({
        db,
        requireToken: true,
        localTokenFile: null,
        recoverRuns: false,
        redisUrl: REDIS_URL,
        redisChannel: fileRedisChannel,
      });
      apps.push(app);
      await app.start(0);
    }
    alice = await createUserWithToken(dbs[0]!, 'Alice');
    bob = await createUserWithToken(dbs[0]!, 'Bob');
    for (const app of apps) {
      clients.push(
        createThinkingMapClient({ url: `${app.url()}/graphql`, token: alice.token, webSocketImpl: WebSocket }),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    for (const app of apps) await app.stop();
    for (const db of dbs) await db.close();
    await testDb?.drop();
  });

  const read = async (app: App, token: string, mapId: string, headers: Record<string, string> = {}) => {
    const response = await post(
      `${app.url()}/graphql`,
      { query: variableRead, variables: { m: mapId } },
      {
        authorization: `Bearer ${token}`,
        ...headers,
      },
    );
    return { ...response, json: () => JSON.parse(response.body.toString('utf8')) as ReadResult };
  };

  it("should return a write made on the other instance in the next read once the write's event has reached it, every time", async () => {
    const [a, b] = apps as [App, App];
    const writer = clients[0]!.client;
    const mapId = await createMap(writer, 'Write then read');
    const root = await createNode(writer, mapId, 'root');
    for (let i = 0; i < 15; i++) {
      // The reader holds a stored answer for the map as it is…
      const before = (await read(b, alice.token, mapId)).json().data.map!;
      const again = await read(b, alice.token, mapId);
      expect(again.json().data.map).toEqual(before);
      expect(again.headers.etag).toMatch(/^".+"$/); // a stored answer
      // …then a write commits on the other instance, and the next read on this one after its event arrived shows it.
      const reached = nextEventOf(b.bus, mapId);
      await createNode(writer, mapId, `child ${i}`, root.id);
      await reached;
      const after = (await read(b, alice.token, mapId)).json().data.map!;
      expect(after.lastSeq).toBeGreaterThan(before.lastSeq);
      expect(after.nodes.map((n) => n.question)).toContain(`child ${i}`);
      // Concurrent reads (which share one read of the map's row) all see it too.
      const burst = await Promise.all(Array.from({ length: 6 }, () => read(b, alice.token, mapId)));
      for (const response of burst) expect(response.json().data.map).toEqual(after);
      // And on the writer's own instance, with another spelling of the read.
      const own = await post(
        `${a.url()}/graphql`,
        { query: literalRead(mapId) },
        { authorization: `Bearer ${alice.token}` },
      );
      expect((JSON.parse(own.body.toString()) as ReadResult).data.theMap!.nodes.map((n) => n.question)).toContain(
        `child ${i}`,
      );
    }
  });

  it("should never give one viewer's stored answer to another", async () => {
    const [a] = apps as [App];
    const mapId = await createMap(clients[0]!.client, 'Private thoughts');
    await createNode(clients[0]!.client, mapId, 'a secret question');
    const own = await read(a, alice.token, mapId);
    expect(own.body.toString()).toContain('a secret question');
    for (let i = 0; i < 2; i++) {
      const other = await read(a, bob.token, mapId);
      expect(other.status).toBe(200);
      expect(other.body.toString()).not.toContain('a secret question');
      expect(other.json().data.map).toEqual({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });
      // Bob cannot revalidate Alice's answer either.
      const revalidated = await read(a, bob.token, mapId, { 'if-none-match': String(own.headers.etag) });
      expect(revalidated.status).toBe(200);
      expect(revalidated.body.toString()).not.toContain('a secret question');
    }
    // Without a token, nothing.
    const anonymous = await post(`${a.url()}/graphql`, { query: variableRead, variables: { m: mapId } }, {});
    expect(anonymous.body.toString()).not.toContain('a secret question');
  });

  it('should answer 304 to an unchanged map and the new map with a new ETag after a change', async () => {
    const [a, b] = apps as [App, App];
    const mapId = await createMap(clients[0]!.client, 'Revalidate');
    const root = await createNode(clients[0]!.client, mapId, 'first');
    const first = await read(b, alice.token, mapId);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const unchanged = await read(b, alice.token, mapId, { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(unchanged.headers.etag).toBe(etag);

    // The change commits on the other instance; this one answers for it once its event has arrived.
    const reached = nextEventOf(b.bus, mapId);
    await createNode(clients[0]!.client, mapId, 'second', root.id);
    await reached;
    const changed = await read(b, alice.token, mapId, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().data.map!.nodes.map((n) => n.question)).toEqual(['first', 'second']);
    // The same answer on the other instance carries the same ETag (it names the map's state, not the instance).
    expect((await read(a, alice.token, mapId)).headers.etag).toBe(changed.headers.etag);
  });

  it('should give each document of a map its own ETag, the same on both instances whatever each saw first', async () => {
    const [a, b] = apps as [App, App];
    const mapId = await createMap(clients[0]!.client, 'Two documents');
    await createNode(clients[0]!.client, mapId, 'only');
    const literal = (app: App, headers: Record<string, string> = {}) =>
      post(
        `${app.url()}/graphql`,
        { query: literalRead(mapId) },
        { authorization: `Bearer ${alice.token}`, ...headers },
      );
    // Each instance stores the two documents in the opposite order.
    const onA = [await read(a, alice.token, mapId), await literal(a)];
    const onB = [await literal(b), await read(b, alice.token, mapId)];
    expect(onA[0]!.headers.etag).not.toBe(onA[1]!.headers.etag);
    expect(onB[1]!.headers.etag).toBe(onA[0]!.headers.etag);
    expect(onB[0]!.headers.etag).toBe(onA[1]!.headers.etag);
    // One document's ETag never revalidates the other's answer, on either instance.
    const crossed = await literal(b, { 'if-none-match': String(onA[0]!.headers.etag) });
    expect(crossed.status).toBe(200);
    expect((JSON.parse(crossed.body.toString('utf8')) as ReadResult).data.theMap!.nodes).toHaveLength(1);
    expect((await read(b, alice.token, mapId, { 'if-none-match': String(onA[1]!.headers.etag) })).status).toBe(200);
    expect((await literal(a, { 'if-none-match': String(onB[0]!.headers.etag) })).status).toBe(304);
  });

  it("should serve a browser's read (urql accepts JSON or a stream) from stored bytes", async () => {
    const [a] = apps as [App];
    const mapId = await createMap(clients[0]!.client, 'Read by a browser');
    await createNode(clients[0]!.client, mapId, 'root');
    // What urql's fetch sends with every query and mutation.
    const accept =
      'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed';
    const first = await read(a, alice.token, mapId, { accept });
    expect(first.headers['content-type']).toContain('json');
    expect(first.json().data.map!.nodes.map((n) => n.question)).toEqual(['root']);
    expect(first.headers.etag).toMatch(/^".+"$/);
    const again = await read(a, alice.token, mapId, { accept, 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('should compress with gzip or Brotli when the client accepts it, and not otherwise', async () => {
    const [a] = apps as [App];
    const mapId = await createMap(clients[0]!.client, 'Compressed');
    const root = await createNode(clients[0]!.client, mapId, 'root');
    for (let i = 0; i < 40; i++)
      await createNode(clients[0]!.client, mapId, `a fairly long question number ${i}`, root.id);
    const plain = await read(a, alice.token, mapId);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzip = await read(a, alice.token, mapId, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    const br = await read(a, alice.token, mapId, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(String(br.headers.vary)).toContain('Accept-Encoding');
  });

  const readByGet = async (app: App, token: string, mapId: string, headers: Record<string, string> = {}) => {
    const response = await get(getUrl(app.url(), variableRead, { m: mapId }), {
      authorization: `Bearer ${token}`,
      ...headers,
    });
    return { ...response, json: () => JSON.parse(response.body.toString('utf8')) as ReadResult };
  };

  it('should serve a read sent by GET from its stored answer, the same answer as by POST, and 304 when unchanged', async () => {
    const [a, b] = apps as [App, App];
    const mapId = await createMap(clients[0]!.client, 'Read by GET');
    await createNode(clients[0]!.client, mapId, 'asked in the URL');
    // Computed by Yoga's GET path on a, by its POST path on b: the same bytes, type and ETag.
    const first = await readByGet(a, alice.token, mapId);
    expect(first.status).toBe(200);
    expect(first.json().data.map!.nodes.map((n) => n.question)).toEqual(['asked in the URL']);
    const byPost = await read(b, alice.token, mapId);
    expect(byPost.body.equals(first.body)).toBe(true);
    expect(byPost.headers['content-type']).toBe(first.headers['content-type']);
    expect(byPost.headers.etag).toBe(first.headers.etag);
    // Asked again by GET: the stored answer.
    const hits = await served(a, 'hit');
    const again = await readByGet(a, alice.token, mapId);
    expect(again.body.equals(first.body)).toBe(true);
    expect(await served(a, 'hit')).toBe(hits + 1);
    const unchanged = await readByGet(a, alice.token, mapId, { 'if-none-match': String(first.headers.etag) });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(unchanged.headers['cache-control']).toBe('private, no-cache');
  });

  it("should return a write made on the other instance in the next read by GET once the write's event has reached it", async () => {
    const [, b] = apps as [App, App];
    const writer = clients[0]!.client;
    const mapId = await createMap(writer, 'Write then GET');
    const root = await createNode(writer, mapId, 'root');
    for (let i = 0; i < 8; i++) {
      const before = await readByGet(b, alice.token, mapId);
      expect((await readByGet(b, alice.token, mapId)).body.equals(before.body)).toBe(true);
      const reached = nextEventOf(b.bus, mapId);
      await createNode(writer, mapId, `child ${i}`, root.id);
      await reached;
      const after = await readByGet(b, alice.token, mapId, { 'if-none-match': String(before.headers.etag) });
      expect(after.status).toBe(200);
      expect(after.json().data.map!.lastSeq).toBeGreaterThan(before.json().data.map!.lastSeq);
      expect(after.json().data.map!.nodes.map((n) => n.question)).toContain(`child ${i}`);
    }
  });

  it("should never give one viewer's stored answer to another by GET", async () => {
    const [a] = apps as [App];
    const mapId = await createMap(clients[0]!.client, 'Private, asked by GET');
    await createNode(clients[0]!.client, mapId, 'a secret in the URL form');
    const own = await readByGet(a, alice.token, mapId);
    expect(own.body.toString()).toContain('a secret in the URL form');
    for (let i = 0; i < 2; i++) {
      const other = await readByGet(a, bob.token, mapId);
      expect(other.body.toString()).not.toContain('a secret in the URL form');
      expect(other.json().data.map).toEqual({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });
      const revalidated = await readByGet(a, bob.token, mapId, { 'if-none-match': String(own.headers.etag) });
      expect(revalidated.status).toBe(200);
      expect(revalidated.body.toString()).not.toContain('a secret in the URL form');
    }
    expect((await get(getUrl(a.url(), variableRead, { m: mapId }), {})).body.toString()).not.toContain(
      'a secret in the URL form',
    );
  });

  it('should refuse a mutation sent by GET (405, as GraphQL over HTTP requires) and change nothing', async () => {
    const [a] = apps as [App];
    const mapId = await createMap(clients[0]!.client, 'Not deleted by GET');
    await createNode(clients[0]!.client, mapId, 'still here');
    await readByGet(a, alice.token, mapId);
    const deletion = `mutation Gone($id: ID!) { deleteMap(id: $id) { __typename } }`;
    const refused = await get(getUrl(a.url(), deletion, { id: mapId }), { authorization: `Bearer ${alice.token}` });
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('POST');
    expect((await read(a, alice.token, mapId)).json().data.map!.nodes.map((n) => n.question)).toEqual(['still here']);
  });

  it('should leave to Yoga what it does not take as a map read: another path, a body that is not JSON', async () => {
    const [a] = apps as [App];
    const mapId = await createMap(clients[0]!.client, 'Only on the endpoint');
    await createNode(clients[0]!.client, mapId, 'only at /graphql');
    const authorization = `Bearer ${alice.token}`;
    const stored = await readByGet(a, alice.token, mapId);
    expect(stored.body.toString()).toContain('only at /graphql');
    const elsewhere = await get(getUrl(a.url(), variableRead, { m: mapId }, '/graphql-elsewhere'), { authorization });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.toString()).not.toContain('only at /graphql');
    const notJson = await post(
      `${a.url()}/graphql`,
      { query: variableRead, variables: { m: mapId } },
      { authorization, 'content-type': 'text/plain' },
    );
    expect(notJson.status).toBe(415);
    expect(notJson.body.toString()).not.toContain('only at /graphql');
  });

  /** How many map reads an instance answered from its stored answers, by outcome. */
  const served = async (app: App, outcome: 'hit' | 'not_modified' | 'computed') =>
    Number(
      new RegExp(`thinkingmap_graphql_stored_answers_total\\{outcome="${outcome}"\\} (\\d+)`).exec(
        await app.metrics.text(),
      )?.[1] ?? 0,
    );

  it('should stop answering a deleted map from its stored answer, on both instances once its deletion reached them', async () => {
    const [a, b] = apps as [App, App];
    const mapId = await createMap(clients[0]!.client, 'Soon gone');
    await createNode(clients[0]!.client, mapId, 'a question about to vanish');
    for (const app of apps) {
      await read(app, alice.token, mapId);
      const hits = await served(app, 'hit');
      expect((await read(app, alice.token, mapId)).body.toString()).toContain('a question about to vanish');
      expect(await served(app, 'hit')).toBe(hits + 1);
    }
    const reached = nextEventOf(b.bus, mapId);
    expect(await call(clients[0]!.client, DELETE_MAP, { id: mapId })).toMatchObject({ id: mapId });
    await reached;
    for (const app of [b, a]) {
      const gone = await read(app, alice.token, mapId);
      expect(gone.body.toString()).not.toContain('a question about to vanish');
      expect(gone.json().data.map).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
      expect(gone.headers.etag).toBeUndefined();
    }
  });

  it('should refuse a revoked token at once, though its answers were stored, on both instances', async () => {
    const [a, b] = apps as [App, App];
    const writer = clients[0]!.client;
    const mapId = await createMap(writer, 'Read by a wall screen');
    await createNode(writer, mapId, 'what the screen shows');
    const { token, apiToken } = await call(writer, CREATE_API_TOKEN, { label: 'screen', scope: 'READ_ONLY' });
    for (const app of apps) {
      const first = await read(app, token, mapId);
      expect(first.body.toString()).toContain('what the screen shows');
      // Stored for this token's viewer and scope: the next read is a stored answer.
      const hits = await served(app, 'hit');
      expect((await read(app, token, mapId)).headers.etag).toBe(first.headers.etag);
      expect(await served(app, 'hit')).toBe(hits + 1);
    }
    // Revoked through instance a: refused there at once…
    expect(await call(writer, REVOKE_API_TOKEN, { id: apiToken.id })).toMatchObject({ active: false });
    const refused = await read(a, token, mapId);
    expect(refused.status).toBe(401);
    expect(refused.body.toString()).not.toContain('what the screen shows');
    expect(refused.json().errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // …and on b as soon as the revocation arrives over Redis, and from then on.
    await expect.poll(async () => (await read(b, token, mapId)).status).toBe(401);
    expect((await read(b, token, mapId)).body.toString()).not.toContain('what the screen shows');
    // Alice's own token still reads the map.
    expect((await read(b, alice.token, mapId)).body.toString()).toContain('what the screen shows');
  });
});
