import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MapVersion, TokenScope, type User } from '@thinkingmap/db';
import { afterEach, describe, expect, it } from 'vitest';
import type { Access } from '../commands/access.ts';
import { MapResponseCache, type StoredAnswerOutcome } from './map-response-cache.ts';

const QUERY = 'query R($m: ID!) { map(id: $m) { ... on Map { lastSeq } } }';

/** An access of a viewer, as the token cache would give it. */
const accessOf = (id: string): Access => ({
  viewer: { id } as User,
  tokenId: `token-of-${id}`,
  scope: TokenScope.FULL,
  expiresAt: null,
});

/**
 * A server answering map reads through a {@link MapResponseCache} whose map rows, viewers and ordinary path are the
 * test's: `rows` is what the synchronous probe reads, `viewers` maps a bearer token to its access (a token it does
 * not know is refused), and every computed answer names the row it was computed from.
 */
async function startCacheServer() {
  const rows = new Map<string, MapVersion>();
  const viewers = new Map<string, Access>();
  const outcomes: (StoredAnswerOutcome | 'sync-hit' | 'ordinary')[] = [];
  let computed = 0;
  const accessNow = (authorization: string | undefined) => viewers.get(authorization?.slice('Bearer '.length) ?? '');
  const cache = new MapResponseCache({
    db: {
      mapVersion: async (mapId) => rows.get(mapId) ?? null,
      mapVersionNow: (mapId) => rows.get(mapId) ?? null,
    },
    access: (req) => accessNow(req.headers.authorization) ?? Promise.reject(new Error('refused')),
    accessNow: (req) => accessNow(req.headers.authorization),
    onServed: (outcome) => outcomes.push(outcome),
  });
  const server: Server = createServer((req, res) => {
    if (cache.serveStored(req, res, undefined)) return void outcomes.push('sync-hit');
    const variables = new URL(req.url ?? '', 'http://x').searchParams.get('variables') ?? '{}';
    const seq = rows.get(JSON.parse(variables).m)?.lastSeq;
    void cache
      .serve(req, res, undefined, async () => {
        computed++;
        const body = Buffer.from(JSON.stringify({ data: { map: { lastSeq: seq } } }));
        return { status: 200, headers: new Headers({ 'content-type': 'application/json' }), body };
      })
      .then((served) => {
        if (served) return;
        outcomes.push('ordinary');
        res.writeHead(401).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Reads map `mapId` as the viewer of `token`: its status and, when answered, the lastSeq in the answer. */
  const read = async (mapId: string, token: string) => {
    const search = new URLSearchParams({ query: QUERY, variables: JSON.stringify({ m: mapId }) });
    const response = await fetch(`${url}/graphql?${search}`, { headers: { authorization: `Bearer ${token}` } });
    const body = response.status === 200 ? ((await response.json()) as { data: { map: { lastSeq: number } } }) : null;
    return { status: response.status, lastSeq: body?.data.map.lastSeq };
  };
  return { rows, viewers, outcomes, read, computed: () => computed, stop: () => server.close() };
}

let stop: (() => unknown) | undefined;
afterEach(() => stop?.());

/** A cache server with map `m` owned by viewer `alice` (token `a`) at `lastSeq` 1. */
async function started() {
  const server = await startCacheServer();
  stop = server.stop;
  server.rows.set('m', { ownerId: 'alice', autoRun: false, lastSeq: 1, tokensUsed: 0, updatedAt: 't1' });
  server.viewers.set('a', accessOf('alice'));
  return server;
}

describe('map response cache, answered without waiting', () => {
  it('should send a stored answer in the request’s own tick once it was computed', async () => {
    const server = await started();
    expect(await server.read('m', 'a')).toEqual({ status: 200, lastSeq: 1 });
    expect(await server.read('m', 'a')).toEqual({ status: 200, lastSeq: 1 });
    expect(server.outcomes).toEqual(['computed', 'hit', 'sync-hit']);
    expect(server.computed()).toBe(1);
  });

  it('should never send a stored answer once the map row has changed', async () => {
    const server = await started();
    await server.read('m', 'a');
    await server.read('m', 'a');
    for (const change of [{ lastSeq: 2 }, { tokensUsed: 5 }, { updatedAt: 't2' }]) {
      server.rows.set('m', { ...server.rows.get('m')!, ...change });
      expect((await server.read('m', 'a')).lastSeq).toBe(server.rows.get('m')!.lastSeq);
      expect(server.outcomes.at(-1)).toBe('computed');
    }
    expect(server.computed()).toBe(4);
  });

  it("should never send one viewer's stored answer to another", async () => {
    const server = await started();
    server.viewers.set('b', accessOf('bob'));
    await server.read('m', 'a');
    expect(await server.read('m', 'b')).toEqual({ status: 401, lastSeq: undefined });
    server.rows.set('m', { ...server.rows.get('m')!, ownerId: 'bob' });
    expect(await server.read('m', 'a')).toEqual({ status: 401, lastSeq: undefined });
    expect(server.outcomes.filter((o) => o === 'ordinary')).toHaveLength(2);
  });

  it('should leave a refused token and an unknown map to the ordinary path', async () => {
    const server = await started();
    await server.read('m', 'a');
    expect((await server.read('m', 'revoked')).status).toBe(401);
    expect((await server.read('no-such-map', 'a')).status).toBe(401);
    expect(server.outcomes).toEqual(['computed', 'ordinary', 'ordinary']);
  });

  it('should compute again for a viewer of another scope', async () => {
    const server = await started();
    await server.read('m', 'a');
    server.viewers.set('a', { ...accessOf('alice'), scope: TokenScope.READ_ONLY });
    await server.read('m', 'a');
    expect(server.outcomes).toEqual(['computed', 'computed']);
  });
});
