import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '@thinkingmap/db';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { Access } from '../commands/access.ts';
import { type MapReadRequest, MapReadRequests } from './map-read-request.ts';
import { type KnownVersion, type MapEventFeed, MapVersions } from './map-versions.ts';
import { type AnswerRequest, hasErrors, keptHeaders, type SentAnswer, StoredAnswer, VARY } from './stored-answer.ts';

/** A stored-answer key kept for its request, and everything it was made of. */
interface LastKey {
  map: KnownVersion;
  viewerId: string;
  scope: string;
  accept: string | undefined;
  origin: string | undefined;
  key: string;
}

/** Bytes the answers' cache holds for an entry besides its key and value (its slots in lru-cache's lists and map). */
const ENTRY_SLOTS = 96;

/** How a map read was answered, for metrics. */
export type StoredAnswerOutcome = 'hit' | 'not_modified' | 'computed';

/** What the cache needs from the server: who asks, the map rows, and the events that tell their versions. */
export interface MapResponseCacheOptions {
  /** The lean read of a map's owner and versions (`Database.mapVersion`): what a version not known here is learnt by. */
  db: Pick<Database, 'mapVersion'>;
  /**
   * The event bus, which tells each map's version as it changes (see {@link MapVersions}); without it every request
   * reads its map's row (instances that share a database but not their events).
   */
  events?: MapEventFeed;
  /**
   * The request's access: at once when it is known without waiting (a token in the token cache), else a promise.
   * Throws (or rejects) when refused: the request then takes the ordinary path, which answers the refusal.
   */
  access(req: IncomingMessage): Access | Promise<Access>;
  /** Called once per map read answered from a stored answer or stored on its way out. */
  onServed?: (outcome: StoredAnswerOutcome) => void;
  /** Where a failure of the cache is reported (the request then takes the ordinary path). */
  logError: (error: unknown) => void;
  /** Told of the caches this one keeps (answers, request texts), to report what each holds (see ServerMetrics). */
  watch?: (name: string, held: () => { bytes: number; entries: number }) => void;
  /** Bytes of answers kept (64 MB), least recently used out. */
  maxBytes?: number;
  /** The GraphQL endpoint's path (`/graphql`): requests to other paths are Yoga's to answer. */
  endpoint?: string;
}

/** A map read the ordinary path answers: its response is stored on the way out (see {@link useStoredAnswers}). */
export interface PendingAnswer {
  /** What to send instead of the ordinary path's 200 response, which is stored when complete. */
  settle(status: number, headers: Headers, body: Buffer): SentAnswer;
}

/** The ordinary GraphQL path (Yoga), handed a {@link PendingAnswer} when its answer is to be stored. */
export type OrdinaryPath = (req: IncomingMessage, res: ServerResponse, pending?: PendingAnswer) => void;

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : value) ?? '';
};

const answerRequest = (req: IncomingMessage): AnswerRequest => ({
  ifNoneMatch: req.headers['if-none-match'] === undefined ? undefined : header(req, 'if-none-match'),
  acceptEncoding: header(req, 'accept-encoding'),
});

/**
 * The one way a map read (`query { map(id) { … } }`) is answered: from a stored answer, or by the ordinary path
 * (Yoga), whose complete answer is then stored. An answer is keyed by (normalised document, operation name, variables,
 * viewer and scope, the map's version — `lastSeq`, bumped by every change in the change's transaction, and
 * `tokensUsed` and `updatedAt` — and the headers it depends on: Accept, Origin). The map's version and owner are those the events
 * tell ({@link MapVersions}): a hit reads nothing from the database. A version not known here is learnt by reading the
 * map's row: the first read of a map, after a gap in its events, after the token ledger changed the row, while the
 * bus is not connected to Redis. So an answer never lags a change whose event reached this instance (on the instance
 * that made it, before its response is sent); it is only served to the viewer it was made for, while that viewer owns
 * the map. A refused or unknown token, an unknown map or another owner's take the ordinary path; answers with errors
 * are never stored. Each answer has an ETag (a hash of its key): a matching `If-None-Match` gets 304; gzip or Brotli
 * when the client accepts it.
 *
 * A request whose token is in the token cache and whose map's version is known is answered in its own tick (no
 * promise); requests that read the row and coincide share one row read.
 *
 * Not `@graphql-yoga/plugin-response-cache` (measured, docs/performance.md): it serialises the stored result again on
 * every hit, costing more than a whole stored answer here, and its 304 answers any cached key whatever lastSeq or viewer.
 */
export class MapResponseCache {
  readonly #options: MapResponseCacheOptions;
  readonly #requests: MapReadRequests;
  readonly #versions: MapVersions;
  readonly #entries: LRUCache<string, StoredAnswer>;
  /** Each request's last stored-answer key, and what it was made of (see {@link MapResponseCache.#storedKey}). */
  readonly #lastKeys = new WeakMap<MapReadRequest, LastKey>();

  constructor(options: MapResponseCacheOptions) {
    this.#options = options;
    this.#requests = new MapReadRequests(options.endpoint);
    this.#versions = new MapVersions((mapId) => options.db.mapVersion(mapId), options.events);
    this.#entries = new LRUCache({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      // The key too, and the cache's own slots for the entry: with many small answers these weigh as much as a body.
      sizeCalculation: (entry, key) => entry.size + key.length + ENTRY_SLOTS,
    });
    options.watch?.('map_answers', () => ({ bytes: this.#entries.calculatedSize, entries: this.#entries.size }));
    options.watch?.('map_read_requests', () => this.#requests.held());
  }

  /**
   * Answers a GraphQL request — a POST whose JSON `body` was read, or a GET — from its stored answer when it is a map
   * read stored for this viewer and the map's current version; otherwise hands it to `ordinary`, with a
   * {@link PendingAnswer} when it is a map read whose answer is to be stored.
   */
  serve(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, ordinary: OrdinaryPath) {
    const request = this.#requests.of(req, body);
    if (!request) return ordinary(req, res);
    let access: Access | Promise<Access>;
    try {
      access = this.#options.access(req);
    } catch {
      return ordinary(req, res);
    }
    if (!(access instanceof Promise)) return this.#withAccess(req, res, ordinary, request, access);
    access.then(
      (known) => this.#withAccess(req, res, ordinary, request, known),
      () => ordinary(req, res),
    );
  }

  #withAccess(
    req: IncomingMessage,
    res: ServerResponse,
    ordinary: OrdinaryPath,
    request: MapReadRequest,
    access: Access,
  ) {
    const known = this.#versions.known(request.mapId);
    if (known) return this.#withMap(req, res, ordinary, request, access, known);
    try {
      this.#versions
        .read(request.mapId)
        .then((row) => this.#withMap(req, res, ordinary, request, access, row))
        .catch((error: unknown) => this.#failed(req, res, ordinary, error));
    } catch (error) {
      this.#failed(req, res, ordinary, error);
    }
  }

  #withMap(
    req: IncomingMessage,
    res: ServerResponse,
    ordinary: OrdinaryPath,
    request: MapReadRequest,
    access: Access,
    map: KnownVersion | null,
  ) {
    // Refusals and unknown maps take the ordinary path (their errors are never stored).
    if (!map || map.ownerId !== access.viewer.id) return ordinary(req, res);
    const key = this.#storedKey(req, request, access, map);
    const stored = this.#entries.get(key);
    if (!stored) return ordinary(req, res, this.#pending(req, request, access, map, key));
    const size = stored.size;
    const sent = this.#sent(req, stored, 'hit');
    // A form made for this request adds to what the answer holds: weigh it again for the bound (lru-cache weighs a
    // value when it is set, not when the same value is set again).
    if (stored.size !== size) {
      this.#entries.delete(key);
      this.#entries.set(key, stored);
    }
    res.writeHead(sent.status, sent.headers);
    res.end(sent.body);
  }

  /** The ordinary path's answer to a map read, stored under `key` when complete. */
  #pending(
    req: IncomingMessage,
    request: MapReadRequest,
    access: Access,
    map: KnownVersion,
    key: string,
  ): PendingAnswer {
    return {
      settle: (status, headers, body) => {
        const kept = keptHeaders(headers);
        // Only complete answers are kept: an answer with errors is computed again next time.
        if (hasErrors(body)) {
          return { status, headers: { ...kept, vary: VARY, 'content-length': String(body.length) }, body };
        }
        const hash = createHash('sha256')
          .update(keyOf(req, request, access, map))
          .update(request.text);
        const answer = new StoredAnswer(`"${hash.digest('base64url').slice(0, 27)}"`, status, kept, body);
        const sent = this.#sent(req, answer, 'computed');
        // Stored once the form this request gets is made, so the cache's bound weighs it.
        this.#entries.set(key, answer);
        return sent;
      },
    };
  }

  #sent(req: IncomingMessage, answer: StoredAnswer, outcome: 'hit' | 'computed'): SentAnswer {
    const request = answerRequest(req);
    this.#options.onServed?.(answer.unchangedFor(request) ? 'not_modified' : outcome);
    return answer.sentTo(request);
  }

  /** A failure of the cache: logged; the request takes the ordinary path unless its answer had begun. */
  #failed(req: IncomingMessage, res: ServerResponse, ordinary: OrdinaryPath, error: unknown) {
    this.#options.logError(error);
    if (res.headersSent) res.destroy();
    else ordinary(req, res);
  }

  /**
   * The key `request`'s answer is stored under for this viewer, map version and headers: the one made for the request's
   * last hit when all of them are the same (the map's version is one object until the map changes), so a
   * repeated read neither builds nor hashes a key.
   */
  #storedKey(req: IncomingMessage, request: MapReadRequest, access: Access, map: KnownVersion): string {
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
    // A digest, not the text: a string built of parts is kept as a tree of them (the request's Accept header among
    // them), several hundred bytes a key, where the digest is one flat string of 43 characters.
    const key = createHash('sha256')
      .update(keyOf(req, request, access, map))
      .update(String(request.key))
      .digest('base64url');
    this.#lastKeys.set(request, { map, viewerId: access.viewer.id, scope: access.scope, accept, origin, key });
    return key;
  }
}

/**
 * What a stored answer of `request` is kept under, before the request's number (which only this process knows): the
 * viewer and scope it was made for, the map's version, and the request headers the answer
 * depends on (Accept, Origin). With the request's text, what the answer's ETag is made of.
 */
const keyOf = (req: IncomingMessage, request: MapReadRequest, access: Access, map: KnownVersion) =>
  `${access.viewer.id}\n${access.scope}\n${request.mapId}\n${map.lastSeq}\n${map.tokensUsed}\n${map.updatedAt}\n${header(req, 'accept')}\n${header(req, 'origin')}\n`;

/**
 * Stores the ordinary path's answers to map reads handed a {@link PendingAnswer} (in the server context, as
 * `storedAnswer`): a 200 response's bytes are kept and sent in the stored answer's form (ETag, encoding, or 304).
 * Placed after Yoga's own response plugins (CORS), so what is stored is what the ordinary path sends.
 */
export function useStoredAnswers(): Plugin<Record<string, never>, { storedAnswer?: PendingAnswer }> {
  return {
    async onResponse({ response, serverContext, setResponse, fetchAPI }) {
      const pending = serverContext.storedAnswer;
      if (!pending || response.status !== 200) return;
      const sent = pending.settle(response.status, response.headers, Buffer.from(await response.arrayBuffer()));
      const body = sent.status === 304 ? null : new Uint8Array(sent.body);
      setResponse(new fetchAPI.Response(body, sent));
    },
  };
}
