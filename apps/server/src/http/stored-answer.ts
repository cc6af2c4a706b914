import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isJsonObject } from '@thinkingmap/db';

/** A response as it is sent: status, complete headers and body. */
export interface SentAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a map read's answer depends on besides its key: the request headers that pick its form. */
export interface AnswerRequest {
  ifNoneMatch: string | undefined;
  acceptEncoding: string;
}

/** Request headers every stored answer varies by. */
export const VARY = 'Accept, Accept-Encoding, Authorization, Origin';
/** Private (per viewer) and revalidated on every use: the map may change at any time. */
const CACHE_CONTROL = 'private, no-cache';

/**
 * A complete answer to a map read, kept as the bytes the ordinary path sent, with an ETag naming what it was made of,
 * and its gzip and Brotli forms made on first demand (each once per answer).
 */
export class StoredAnswer {
  readonly etag: string;
  readonly #status: number;
  /** The ordinary path's headers, without length and encoding. */
  readonly #headers: Record<string, string>;
  readonly #body: Buffer;
  #identity?: SentAnswer;
  #gzip?: SentAnswer;
  #br?: SentAnswer;
  readonly #notModified: SentAnswer;

  constructor(etag: string, status: number, headers: Record<string, string>, body: Buffer) {
    this.etag = etag;
    this.#status = status;
    this.#headers = headers;
    this.#body = ownBytes(body);
    this.#notModified = {
      status: 304,
      headers: { etag, vary: VARY, 'cache-control': CACHE_CONTROL },
      body: Buffer.alloc(0),
    };
  }

  /** Bytes held, for the cache's bound: the bytes of each form made, and the objects and headers around each. */
  get size(): number {
    const forms = [this.#identity, this.#gzip, this.#br].filter((form) => form !== undefined);
    return (
      this.#body.length + (this.#gzip?.body.length ?? 0) + (this.#br?.body.length ?? 0) + 1024 + 768 * forms.length
    );
  }

  /** Whether the client holds this answer already (its `If-None-Match` names the ETag): it is then sent a 304. */
  unchangedFor(request: AnswerRequest): boolean {
    return !!request.ifNoneMatch?.split(/\s*,\s*/).includes(this.etag);
  }

  /** What to send: 304 when the client holds it, else its bytes in the best encoding the client accepts. */
  sentTo(request: AnswerRequest): SentAnswer {
    if (this.unchangedFor(request)) return this.#notModified;
    const compressible = this.#body.length > 1024;
    if (compressible && /\bbr\b/.test(request.acceptEncoding)) {
      this.#br ??= this.#variant(
        ownBytes(brotliCompressSync(this.#body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })),
        'br',
      );
      return this.#br;
    }
    if (compressible && /\bgzip\b/.test(request.acceptEncoding)) {
      this.#gzip ??= this.#variant(ownBytes(gzipSync(this.#body)), 'gzip');
      return this.#gzip;
    }
    this.#identity ??= this.#variant(this.#body, undefined);
    return this.#identity;
  }

  #variant(body: Buffer, encoding: string | undefined): SentAnswer {
    const headers: Record<string, string> = {
      ...this.#headers,
      vary: VARY,
      etag: this.etag,
      'cache-control': CACHE_CONTROL,
      'content-length': String(body.length),
    };
    if (encoding) headers['content-encoding'] = encoding;
    return { status: this.#status, headers, body };
  }
}

/**
 * The bytes in memory of their own. zlib's output is a view of the larger chunk it wrote into (and a small copy a view
 * of Node's shared pool), and a response's body read whole a view of a buffer of 8 KB or more: kept as is, each stored
 * answer would hold that whole chunk, unseen by the cache's bound.
 */
function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** An ordinary path's response headers as kept with its answer: without length and encoding (each form sets its own). */
export function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'content-encoding') kept[name] = value;
  });
  return kept;
}

/** Whether a GraphQL answer has errors (read once per computed answer): those are never stored. */
export function hasErrors(body: Buffer): boolean {
  try {
    const answer: unknown = JSON.parse(body.toString('utf8'));
    return !isJsonObject(answer) || 'errors' in answer;
  } catch {
    return true;
  }
}
