import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MapVersion, TokenScope, type User } from '@thinkingmap/db';
import { afterEach, describe, expect, it } from 'vitest';
import type { Access } from '../commands/access.ts';
import { MapResponseCache, type OrdinaryPath, type StoredAnswerOutcome } from './map-response-cache.ts';

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
 * test's: `rows` is what the map row read answers, `viewers` maps a bearer token to its access (a token it does
 * not know is refused), and every computed answer names the row it was computed from; the ordinary path answers
 * anything it is not asked to store with 401.
 */
async function startCacheServer() {
  const rows = new Map<string, MapVersion>();
  const viewers = new Map<string, Access>();
  const outcomes: (StoredAnswerOutcome | 'ordinary')[] = [];
  const held = new Map<string, () => { bytes: number; entries: number }>();
  let computed = 0;
  const accessOf = (authorization: string | undefined) => viewers.get(authorization?.slice('Bearer '.length) ?? '');
  const cache = new MapResponseCache({
    db: {
      mapVersion: async (mapId) => rows.get(mapId) ?? null,
    },
    access: (req) => accessOf(req.headers.authorization) ?? Promise.reject(new Error('refused')),
    onServed: (outcome) => outcomes.push(outcome),
    watch: (name, read) => held.set(name, read),
    logError: (error) => {
      throw error;
    },
  });
  const ordinary: OrdinaryPath = (req, res, pending) => {
    if (!pending) {
      outcomes.push('ordinary');
      return void res.writeHead(401).end();
    }
    computed++;
    const variables = new URL(req.url ?? '', 'http://x').searchParams.get('variables') ?? '{}';
    const seq = rows.get(JSON.parse(variables).m)?.lastSeq;
    const body = Buffer.from(JSON.stringify({ data: { map: { lastSeq: seq } } }));
    const sent = pending.settle(200, new Headers({ 'content-type': 'application/json' }), body);
    res.writeHead(sent.status, sent.headers).end(sent.body);
  };
  const server: Server = createServer((req, res) => {
    cache.serve(req, res, undefined, ordinary);
    // Answered before the listener returned: no promise, no later turn.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** The raw response to a read of map `mapId` as the viewer of `token`, with these request headers. */
  const get = (mapId: string, token: string, headers: Record<string, string> = {}) => {
    const search = new URLSearchParams({ query: QUERY, variables: JSON.stringify({ m: mapId }) });
    return fetch(`${url}/graphql?${search}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  };
  /** Reads map `mapId` as the viewer of `token`: its status and, when answered, the lastSeq in the answer. */
  const read = async (mapId: string, token: string) => {
    const response = await get(mapId, token);
    const body = response.status === 200 ? ((await response.json()) as { data: { map: { lastSeq: number } } }) : null;
    return { status: response.status, lastSeq: body?.data.map.lastSeq };
  };
  const answers = () => held.get('map_answers')!();
  return { rows, viewers, outcomes, read, get, answers, computed: () => computed, stop: () => server.close() };
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

describe('map response cache', () => {
  it('should send the stored answer once it was computed', async () => {
    const server = await started();
    expect(await server.read('m', 'a')).toEqual({ status: 200, lastSeq: 1 });
    expect(await server.read('m', 'a')).toEqual({ status: 200, lastSeq: 1 });
    expect(server.outcomes).toEqual(['computed', 'hit']);
    expect(server.computed()).toBe(1);
  });

  it('should weigh each answer with its key, a flat digest whatever the request headers it stands for', async () => {
    const server = await started();
    const body = JSON.stringify({ data: { map: { lastSeq: 1 } } });
    // What an answer holds in its one form sent so far (see StoredAnswer.size).
    const answer = body.length + 1024 + 768;
    const longAccept = `application/graphql-response+json, application/json;q=0.9, ${'x'.repeat(2_000)}`;
    await server.get('m', 'a', { accept: longAccept }).then((response) => response.arrayBuffer());
    expect(server.answers().entries).toBe(1);
    // The key's 43 characters and the cache's slots, not the 2,000-character Accept header it was made of.
    expect(server.answers().bytes - answer).toBe(43 + 96);
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

  it('should answer 304 to a computed answer the client already holds (its ETag from another instance)', async () => {
    const first = await started();
    const etag = (await first.get('m', 'a')).headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const other = await startCacheServer();
    const stopFirst = stop;
    stop = () => {
      stopFirst?.();
      other.stop();
    };
    other.rows.set('m', first.rows.get('m')!);
    other.viewers.set('a', accessOf('alice'));
    const revalidated = await other.get('m', 'a', { 'if-none-match': etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(other.outcomes).toEqual(['not_modified']);
    expect(other.computed()).toBe(1);
  });
});
