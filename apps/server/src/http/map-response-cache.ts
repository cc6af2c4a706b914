import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Database, MapVersion } from '@thinkingmap/db';
import { LRUCache } from 'lru-cache';
import type { Access } from '../commands/access.ts';
import { type MapReadRequest, MapReadRequests } from './map-read-request.ts';
import { MapVersionReads } from './map-version-reads.ts';

/** How a stored answer is sent, per encoding: the body and its complete headers, made on first demand. */
interface Variant {
  body: Buffer;
  headers: Record<string, string | number>;
}

/** A stored answer, with its compressed forms made on first demand. */
interface Entry {
  etag: string;
  status: number;
  /** The ordinary path's headers, without length and encoding. */
  headers: Record<string, string>;
  body: Buffer;
  identity?: Variant;
  gzip?: Variant;
  br?: Variant;
}

/** A stored-answer key kept for its request, and everything it was made of. */
interface LastKey {
  map: MapVersion;
  viewerId: string;
  scope: string;
  accept: string | undefined;
  origin: string | undefined;
  key: string;
}

/** How a request was answered, for metrics. */
export type StoredAnswerOutcome = 'hit' | 'not_modified' | 'computed';

/** What a cacheable request needs from the server: who asks, and the full answer when nothing is cached. */
export interface MapResponseCacheOptions {
  /**
   * The lean read of a map's owner and versions (`Database.mapVersion`), and its synchronous form where the database
   * has one (`Database.mapVersionNow`, SQLite).
   */
  db: Pick<Database, 'mapVersion' | 'mapVersionNow'>;
  /**
   * Resolves the request's bearer token: at once when the token cache knows it, else a promise. Throws (or
   * rejects) when refused: the request then takes the ordinary path, which answers the refusal.
   */
  access(req: IncomingMessage): Access | Promise<Access>;
  /**
   * The request's access when it is known without waiting (a token in the token cache, or no token where the local
   * user needs none); undefined when only the database can tell, or when the token is refused.
   */
  accessNow?(req: IncomingMessage): Access | undefined;
  /** Called once per map read answered here. */
  onServed?: (outcome: StoredAnswerOutcome) => void;
  /** Bytes of answers kept (64 MB), least recently used out. */
  maxBytes?: number;
  /** The GraphQL endpoint's path (`/graphql`): requests to other paths are Yoga's to answer. */
  endpoint?: string;
}

/** An answer computed by the ordinary GraphQL path (Yoga's fetch API). */
export interface ComputedResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : value) ?? '';
};

const VARY = 'Accept, Accept-Encoding, Authorization, Origin';
/** Private (per viewer) and revalidated on every use: the map may change at any time. */
const CACHE_CONTROL = 'private, no-cache';

/**
 * Serves repeated reads of a map (`query { map(id) { … } }`) from stored bytes, before Yoga, at close to the speed of
 * a handler returning JSON from memory. Each request still reads the map's row — `lastSeq` (bumped by every change in
 * the change's transaction), `tokensUsed` (the budget ledger changes it without an event), `updatedAt` and its owner —
 * through `Database.mapVersion` (a prepared statement, not the ORM), and the answer is keyed by (normalised document,
 * operation name, variables, viewer and scope, that row's versions, and the headers the answer depends on: Accept,
 * Origin). So an answer never lags the `lastSeq` the request read, on any instance, without any message between
 * instances; an answer is only ever served to the viewer it was made for, and only while that viewer owns the map.
 * Anything else — a refused or unknown token, an unknown map or another owner's, an answer not stored yet — takes the
 * ordinary path (Yoga), whose answers are stored only when complete (errors never are). Each answer has an ETag (a
 * hash of its key): a matching `If-None-Match` gets 304; gzip or Brotli when the client accepts it, compressed once
 * per answer.
 *
 * What a stored answer costs: the request's text (a POST's body, a GET's URL) is looked up (a known map read is
 * parsed once), the token in the token cache (a lookup), the map's row by its key (see {@link MapVersionReads}), the
 * answer by its key, and the stored bytes and headers are written. A GET costs no body read at all.
 *
 * Why not `@graphql-yoga/plugin-response-cache`: it runs inside Yoga's pipeline (context, envelop hooks) and
 * stores results as objects serialised again for every hit — a 200 KB answer's `JSON.stringify` alone costs more
 * than the whole request here — and invalidates by mutations seen in this process, which misses agent writes and
 * other instances' writes.
 */
export class MapResponseCache {
  readonly #options: MapResponseCacheOptions;
  readonly #requests: MapReadRequests;
  readonly #versions: MapVersionReads;
  readonly #entries: LRUCache<string, Entry>;
  /** Each request's last stored-answer key, and what it was made of (see {@link MapResponseCache.#storedKey}). */
  readonly #lastKeys = new WeakMap<MapReadRequest, LastKey>();

  constructor(options: MapResponseCacheOptions) {
    this.#options = options;
    this.#requests = new MapReadRequests(options.endpoint);
    this.#versions = new MapVersionReads((mapId) => options.db.mapVersion(mapId), options.db.mapVersionNow);
    this.#entries = new LRUCache({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (entry) =>
        entry.body.length + (entry.gzip?.body.length ?? 0) + (entry.br?.body.length ?? 0) + 1024,
    });
  }

  /**
   * Answers `req` from a stored answer without waiting, when everything it depends on is known at once: a map read
   * seen before, its access (see {@link MapResponseCacheOptions.accessNow}), the map's row read synchronously for a
   * request alone in its turn ({@link MapVersionReads.readAlone}), and an answer stored under that row's versions.
   * Returns false, having written nothing, otherwise: {@link serve} then decides. A lone client's hit thus costs no
   * promise and no turn of the event loop; requests that coincide are still answered together, after one shared
   * read (answering a busy turn's requests one by one as they are read cost more than a third of the throughput at
   * 32 connections).
   */
  serveStored(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): boolean {
    const accessNow = this.#options.accessNow;
    // A request that coincides with others is answered with them: nothing to look up twice.
    if (!accessNow || !this.#versions.alone) return false;
    const request = this.#requests.of(req, body);
    if (!request) return false;
    const access = accessNow(req);
    if (!access) return false;
    const map = this.#versions.readAlone(request.mapId);
    if (!map || map.ownerId !== access.viewer.id) return false;
    const entry = this.#entries.get(this.#storedKey(req, request, access, map));
    if (!entry) return false;
    this.#answer(req, res, entry, 'hit');
    return true;
  }

  /**
   * The key `request`'s answer is stored under for this viewer, map row and headers: the one made for the request's
   * last hit when all of them are the same (the probe hands out one row object until the map changes), so a repeated
   * read neither builds nor hashes a key string.
   */
  #storedKey(req: IncomingMessage, request: MapReadRequest, access: Access, map: MapVersion): string {
    const last = this.#lastKeys.get(request);
    const { accept, origin } = req.headers;
    if (
      last?.map === map &&
      last.viewerId === access.viewer.id &&
      last.scope === access.scope &&
      last.accept === accept &&
      last.origin === origin
    )
      return last.key;
    const key = keyOf(req, request, access, map) + request.key;
    this.#lastKeys.set(request, { map, viewerId: access.viewer.id, scope: access.scope, accept, origin, key });
    return key;
  }

  /**
   * Answers `req` when it is a map read — a POST whose JSON `body` was read, or a GET (GraphQL over HTTP) — from the
   * store, or by `compute` (the ordinary path) and stored. Returns false, having written nothing, for anything else.
   */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | undefined,
    compute: () => Promise<ComputedResponse>,
  ): Promise<boolean> {
    const request = this.#requests.of(req, body);
    if (!request) return false;
    let access: Access;
    try {
      access = await this.#options.access(req);
    } catch {
      return false;
    }
    const map = await this.#versions.read(request.mapId);
    // Refusals and unknown maps take the ordinary path (their errors are never stored).
    if (!map || map.ownerId !== access.viewer.id) return false;
    const key = keyOf(req, request, access, map);
    let entry = this.#entries.get(key + request.key);
    const stored = entry !== undefined;
    if (!entry) {
      const computed = await compute();
      const headers: Record<string, string> = {};
      computed.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'content-encoding') headers[name] = value;
      });
      entry = {
        etag: `"${createHash('sha256').update(key).update(request.text).digest('base64url').slice(0, 27)}"`,
        status: computed.status,
        headers,
        body: computed.body,
      };
      // Only complete answers are kept: an answer with errors (or a refusal) is computed again next time.
      if (computed.status !== 200 || hasErrors(computed.body)) {
        this.#write(req, res, entry, false);
        return true;
      }
      this.#entries.set(key + request.key, entry);
    }
    this.#answer(req, res, entry, stored ? 'hit' : 'computed');
    return true;
  }

  /** Sends a stored answer: 304 when the client holds it already (`If-None-Match`), else its bytes. */
  #answer(req: IncomingMessage, res: ServerResponse, entry: Entry, outcome: 'hit' | 'computed') {
    const unchanged = req.headers['if-none-match'] !== undefined && matches(header(req, 'if-none-match'), entry.etag);
    this.#options.onServed?.(unchanged ? 'not_modified' : outcome);
    if (unchanged) {
      res.writeHead(304, { etag: entry.etag, vary: VARY, 'cache-control': CACHE_CONTROL });
      res.end();
    } else {
      this.#write(req, res, entry, true);
    }
  }

  #write(req: IncomingMessage, res: ServerResponse, entry: Entry, cacheable: boolean) {
    if (!cacheable) {
      res.writeHead(entry.status, { ...entry.headers, vary: VARY, 'content-length': entry.body.length });
      return void res.end(entry.body);
    }
    const accepted = header(req, 'accept-encoding');
    const compressible = entry.body.length > 1024;
    let variant: Variant;
    if (compressible && /\bbr\b/.test(accepted)) {
      entry.br ??= this.#variant(
        entry,
        brotliCompressSync(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
        'br',
      );
      variant = entry.br;
    } else if (compressible && /\bgzip\b/.test(accepted)) {
      entry.gzip ??= this.#variant(entry, gzipSync(entry.body), 'gzip');
      variant = entry.gzip;
    } else {
      entry.identity ??= this.#variant(entry, entry.body, undefined);
      variant = entry.identity;
    }
    res.writeHead(entry.status, variant.headers);
    res.end(variant.body);
  }

  #variant(entry: Entry, body: Buffer, encoding: string | undefined): Variant {
    const headers: Record<string, string | number> = {
      ...entry.headers,
      vary: VARY,
      etag: entry.etag,
      'cache-control': CACHE_CONTROL,
      'content-length': body.length,
    };
    if (encoding) headers['content-encoding'] = encoding;
    return { body, headers };
  }
}

/**
 * What a stored answer of `request` is kept under, with the request's number after it: the viewer and scope it was
 * made for, the map row's versions read by the request, and the request headers the answer depends on (Accept,
 * Origin). Without the number (which only this process knows), what the answer's ETag is made of.
 */
const keyOf = (req: IncomingMessage, request: MapReadRequest, access: Access, map: MapVersion) =>
  `${access.viewer.id}\n${access.scope}\n${request.mapId}\n${map.lastSeq}\n${map.tokensUsed}\n${map.updatedAt}\n${header(req, 'accept')}\n${header(req, 'origin')}\n`;

/** Whether an `If-None-Match` value names `etag`. */
const matches = (ifNoneMatch: string, etag: string) => ifNoneMatch.split(/\s*,\s*/).includes(etag);

/** Whether a GraphQL answer has errors (read once per stored answer). */
function hasErrors(body: Buffer): boolean {
  try {
    return 'errors' in (JSON.parse(body.toString('utf8')) as object);
  } catch {
    return true;
  }
}

/**
 * The ordinary GraphQL path for a request whose body was read (a POST's; a GET has none): the same Yoga instance
 * through its fetch API, so every plugin (limits, time-out, metrics) applies.
 */
export async function computeThrough(
  fetch: (request: Request) => Promise<Response> | Response,
  req: IncomingMessage,
  body: Buffer | undefined,
): Promise<ComputedResponse> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'content-length')
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/graphql'}`;
  const response = await fetch(
    new Request(url, { method: req.method, headers, body: body === undefined ? undefined : new Uint8Array(body) }),
  );
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
