import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Database } from '@thinkingmap/db';
import { type DocumentNode, Kind, type OperationDefinitionNode, parse, print } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Access } from '../auth/access.ts';

/** What a map read's document asks for: the map id's literal or variable, and the normalised document. */
interface MapRead {
  /** `print` of the parsed document: the same query written with other spacing shares an entry. */
  normalised: string;
  id: { literal: string } | { variable: string };
}

/** A stored answer, with its compressed forms made on first demand. */
interface Entry {
  etag: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/** What a cacheable request needs from the server: who asks, and the full answer when nothing is cached. */
export interface MapResponseCacheOptions {
  db: Database;
  /** Resolves the request's bearer token (throws when refused: the request then takes the ordinary path). */
  access(req: IncomingMessage): Promise<Access>;
  /** Bytes of answers kept (64 MB), least recently used out. */
  maxBytes?: number;
}

/** An answer computed by the ordinary GraphQL path (Yoga's fetch API). */
export interface ComputedResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

const NOT_A_MAP_READ = null;

/** The map read a document is, or null: one query operation whose root fields are all `map(id:)` of one map. */
function mapReadOf(document: DocumentNode, operationName: string | undefined): MapRead | null {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (operation?.operation !== 'query' || (!operationName && operations.length > 1)) return NOT_A_MAP_READ;
  let id: MapRead['id'] | undefined;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return NOT_A_MAP_READ;
    if (selection.name.value === '__typename') continue;
    if (selection.name.value !== 'map') return NOT_A_MAP_READ;
    const arg = selection.arguments?.find((a) => a.name.value === 'id')?.value;
    const named: MapRead['id'] | undefined =
      arg?.kind === Kind.STRING
        ? { literal: arg.value }
        : arg?.kind === Kind.VARIABLE
          ? { variable: arg.name.value }
          : undefined;
    if (!named || (id && JSON.stringify(id) !== JSON.stringify(named))) return NOT_A_MAP_READ;
    id = named;
  }
  return id ? { normalised: print(document), id } : NOT_A_MAP_READ;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : value) ?? '';
};

/**
 * Serves repeated reads of a map (`query { map(id) { … } }`) from stored bytes, at the speed of a handler
 * returning JSON from memory. Each request still reads the map's row — `lastSeq` (bumped by every change in the
 * change's transaction), `tokensUsed` (the budget ledger changes it without an event) and `updatedAt` — and the
 * answer is keyed by (normalised document, operation name, variables, viewer and scope, that row's versions, and
 * the headers the answer depends on: Accept, Origin). So an answer never lags the `lastSeq` the request read, on
 * any instance, without any message between instances; an answer is only ever served to the viewer it was made
 * for. Errors are never stored. Each answer has an ETag (a hash of its key): a matching `If-None-Match` gets 304;
 * gzip or Brotli when the client accepts it, compressed once per answer.
 *
 * Why not `@graphql-yoga/plugin-response-cache`: it runs inside Yoga's pipeline (context, envelop hooks) and
 * stores results as objects serialised again for every hit — a 200 KB answer's `JSON.stringify` alone costs more
 * than the whole request here — and invalidates by mutations seen in this process, which misses agent writes and
 * other instances' writes.
 */
export class MapResponseCache {
  readonly #options: MapResponseCacheOptions;
  readonly #documents = new LRUCache<string, MapRead | false>({ max: 500 });
  readonly #entries: LRUCache<string, Entry>;

  constructor(options: MapResponseCacheOptions) {
    this.#options = options;
    this.#entries = new LRUCache({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (entry) => entry.body.length + (entry.gzip?.length ?? 0) + (entry.br?.length ?? 0) + 1024,
    });
  }

  #mapRead(query: string, operationName: string | undefined): MapRead | null {
    const key = `${operationName ?? ''}\n${query}`;
    const known = this.#documents.get(key);
    if (known !== undefined) return known || null;
    let read: MapRead | null = null;
    try {
      read = mapReadOf(parse(query), operationName);
    } catch {
      // A syntax error is Yoga's to answer.
    }
    this.#documents.set(key, read ?? false);
    return read;
  }

  /**
   * Answers `req` (a POST whose JSON `body` was read) when it is a map read: from the store, or by `compute`
   * (the ordinary path) and stored. Returns false, having written nothing, for anything else.
   */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    compute: () => Promise<ComputedResponse>,
  ): Promise<boolean> {
    let params: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      params = JSON.parse(body.toString('utf8'));
    } catch {
      return false;
    }
    if (typeof params?.query !== 'string') return false;
    const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
    const read = this.#mapRead(params.query, operationName);
    if (!read) return false;
    const variables = (params.variables ?? {}) as Record<string, unknown>;
    const mapId = 'literal' in read.id ? read.id.literal : variables[read.id.variable];
    if (typeof mapId !== 'string') return false;
    let access: Access;
    try {
      access = await this.#options.access(req);
    } catch {
      return false;
    }
    const map = await this.#options.db.read.map.findUnique({
      where: { id: mapId },
      select: { ownerId: true, lastSeq: true, tokensUsed: true, updatedAt: true },
    });
    // Refusals and unknown maps take the ordinary path (their errors are never stored).
    if (!map || map.ownerId !== access.viewer.id) return false;
    const key = [
      access.viewer.id,
      access.scope,
      mapId,
      map.lastSeq,
      map.tokensUsed,
      map.updatedAt.getTime(),
      operationName ?? '',
      JSON.stringify(variables),
      header(req, 'accept'),
      header(req, 'origin'),
      read.normalised,
    ].join('\n');
    let entry = this.#entries.get(key);
    if (!entry) {
      const computed = await compute();
      const headers: Record<string, string> = {};
      computed.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'content-encoding') headers[name] = value;
      });
      entry = {
        etag: `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`,
        status: computed.status,
        headers,
        body: computed.body,
      };
      // Only complete answers are kept: an answer with errors (or a refusal) is computed again next time.
      if (computed.status !== 200 || hasErrors(computed.body)) {
        this.#write(req, res, entry, false);
        return true;
      }
      this.#entries.set(key, entry);
    }
    this.#write(req, res, entry, true);
    return true;
  }

  #write(req: IncomingMessage, res: ServerResponse, entry: Entry, cacheable: boolean) {
    const vary = 'Accept, Accept-Encoding, Authorization, Origin';
    const headers: Record<string, string | number> = { ...entry.headers, vary };
    if (cacheable) {
      headers.etag = entry.etag;
      // Private (per viewer) and revalidated on every use: the map may change at any time.
      headers['cache-control'] = 'private, no-cache';
      if (
        header(req, 'if-none-match')
          .split(/\s*,\s*/)
          .includes(entry.etag)
      ) {
        res.writeHead(304, { etag: entry.etag, vary, 'cache-control': 'private, no-cache' });
        return void res.end();
      }
    }
    const accepted = header(req, 'accept-encoding');
    let body = entry.body;
    if (entry.body.length > 1024 && /\bbr\b/.test(accepted)) {
      entry.br ??= brotliCompressSync(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
      body = entry.br;
      headers['content-encoding'] = 'br';
    } else if (entry.body.length > 1024 && /\bgzip\b/.test(accepted)) {
      entry.gzip ??= gzipSync(entry.body);
      body = entry.gzip;
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = body.length;
    res.writeHead(entry.status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}

/** Whether a GraphQL answer has errors (read once per stored answer). */
function hasErrors(body: Buffer): boolean {
  try {
    return 'errors' in (JSON.parse(body.toString('utf8')) as object);
  } catch {
    return true;
  }
}

/**
 * The ordinary GraphQL path for a request whose body was read: the same Yoga instance through its fetch API, so
 * every plugin (limits, time-out, metrics) applies.
 */
export async function computeThrough(
  fetch: (request: Request) => Promise<Response> | Response,
  req: IncomingMessage,
  body: Buffer,
): Promise<ComputedResponse> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'content-length')
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/graphql'}`;
  const response = await fetch(new Request(url, { method: 'POST', headers, body: new Uint8Array(body) }));
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
