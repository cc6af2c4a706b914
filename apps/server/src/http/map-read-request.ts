import type { IncomingMessage } from 'node:http';
import { type DocumentNode, Kind, type OperationDefinitionNode, parse, print } from 'graphql';
import { LRUCache } from 'lru-cache';

/** A request known to be a map read: what its stored answers are keyed by besides the viewer and the map. */
export interface MapReadRequest {
  mapId: string;
  /**
   * Names (operation name, variables, normalised document) in the answers' keys: a number given once per distinct
   * request in this process, so a hit builds and hashes a short key instead of one holding the whole document.
   */
  key: number;
  /** The same, written out: what ETags are made of, so they mean the same answer on every instance and after a restart. */
  text: string;
}

/** What a map read's document asks for: the map id's literal or variable, and the normalised document. */
interface MapRead {
  /** `print` of the parsed document: the same query written with other spacing shares an entry. */
  normalised: string;
  id: { literal: string } | { variable: string };
}

/** GraphQL over HTTP's request parameters, as sent (not checked yet). */
interface RequestParams {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
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

/** A POST's JSON body, or null. */
function paramsOfBody(text: string): RequestParams | null {
  try {
    const params: unknown = JSON.parse(text);
    return typeof params === 'object' ? (params as RequestParams | null) : null;
  } catch {
    return null;
  }
}

/** A GET's query string read as Yoga reads it (empty values are absent; variables are JSON), or null. */
function paramsOfSearch(search: string): RequestParams | null {
  const params = new URLSearchParams(search);
  const variables = params.get('variables') || undefined;
  try {
    return {
      query: params.get('query') || undefined,
      operationName: params.get('operationName') || undefined,
      variables: variables === undefined ? undefined : JSON.parse(variables),
    };
  } catch {
    return null;
  }
}

/** Whether a POST's body is JSON to Yoga (its `isPOSTJsonRequest`): other bodies are not read as a map read. */
function isJsonBody(req: IncomingMessage): boolean {
  const type = req.headers['content-type']?.split(',')[0];
  return (
    !!type &&
    (type === 'application/json' ||
      type.startsWith('application/json;') ||
      type === 'application/graphql+json' ||
      type.startsWith('application/graphql+json;'))
  );
}

/** Request texts remembered as map reads (or not), per method; longer ones are parsed every time. */
const KNOWN_TEXTS_BYTES = 4 * 1024 * 1024;
const KNOWN_TEXT_MAX = 64 * 1024;

/**
 * Request texts of one method remembered as map reads (or not). The last one is also kept aside: a client sends the
 * same read again and again, and comparing it with the last text costs less than hashing it for a lookup.
 */
class KnownTexts {
  readonly #texts = new LRUCache<string, MapReadRequest | false>({
    maxSize: KNOWN_TEXTS_BYTES,
    // The text, and the request's own text (its normalised document) when it is a map read.
    sizeCalculation: (request, text) => text.length + (request ? request.text.length : 0) + 128,
  });
  #lastText: string | undefined;
  #last: MapReadRequest | false = false;

  /** What `text` was found to be: a map read, false when not one, undefined when not seen (or forgotten). */
  get(text: string): MapReadRequest | false | undefined {
    if (text === this.#lastText) return this.#last;
    const known = this.#texts.get(text);
    if (known !== undefined) this.#remember(text, known);
    return known;
  }

  set(text: string, request: MapReadRequest | false) {
    if (text.length > KNOWN_TEXT_MAX) return;
    this.#texts.set(text, request);
    this.#remember(text, request);
  }

  /** The bytes of the texts kept (what the bound counts) and how many they are. */
  held(): { bytes: number; entries: number } {
    return { bytes: this.#texts.calculatedSize, entries: this.#texts.size };
  }

  #remember(text: string, request: MapReadRequest | false) {
    this.#lastText = text;
    this.#last = request;
  }
}

/**
 * Tells which requests are map reads, in both forms of GraphQL over HTTP: a POST with a JSON body, and a GET with
 * `query`, `variables` and `operationName` in its query string (queries only: a mutation is never a map read, so
 * Yoga refuses it by GET with 405). A request text seen before — the body, or the GET's URL — is looked up, not
 * parsed again. Only requests to the GraphQL endpoint itself are map reads; anything else is Yoga's to answer.
 */
export class MapReadRequests {
  readonly #endpoint: string;
  readonly #documents = new LRUCache<string, MapRead | false>({ max: 500 });
  readonly #bodies = new KnownTexts();
  readonly #urls = new KnownTexts();
  /** Distinct requests (operation name, variables, normalised document) → the number their answers are keyed by. */
  readonly #requestKeys = new LRUCache<string, number>({
    maxSize: KNOWN_TEXTS_BYTES,
    sizeCalculation: (_value, key) => key.length + 64,
  });
  #nextRequestKey = 0;

  constructor(endpoint = '/graphql') {
    this.#endpoint = endpoint;
  }

  /** The request texts and keys remembered now: bytes of their texts and how many they are. */
  held(): { bytes: number; entries: number } {
    const parts = [this.#bodies.held(), this.#urls.held()];
    const keys = { bytes: this.#requestKeys.calculatedSize, entries: this.#requestKeys.size };
    return [...parts, keys].reduce((sum, part) => ({
      bytes: sum.bytes + part.bytes,
      entries: sum.entries + part.entries,
    }));
  }

  /** The map read `req` is — a POST whose `body` was read, or a GET — or null. */
  of(req: IncomingMessage, body: Buffer | undefined): MapReadRequest | null {
    const url = req.url ?? '';
    const end = this.#endpoint.length;
    if (!url.startsWith(this.#endpoint) || (url.length > end && url.charCodeAt(end) !== 63) /* ? */) return null;
    if (req.method === 'POST' && body !== undefined) {
      if (!isJsonBody(req)) return null;
      const text = body.toString('utf8');
      return this.#known(this.#bodies, text, () => paramsOfBody(text));
    }
    if (req.method !== 'GET' || url.length === end) return null;
    return this.#known(this.#urls, url, () => paramsOfSearch(url.slice(end + 1)));
  }

  #known(known: KnownTexts, text: string, params: () => RequestParams | null): MapReadRequest | null {
    const remembered = known.get(text);
    if (remembered !== undefined) return remembered || null;
    const request = this.#request(params());
    known.set(text, request ?? false);
    return request;
  }

  #request(params: RequestParams | null): MapReadRequest | null {
    if (typeof params?.query !== 'string') return null;
    const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
    const read = this.#mapRead(params.query, operationName);
    if (!read) return null;
    const variables = (params.variables ?? {}) as Record<string, unknown>;
    const mapId = 'literal' in read.id ? read.id.literal : variables[read.id.variable];
    if (typeof mapId !== 'string') return null;
    const named = [operationName ?? '', JSON.stringify(variables), read.normalised].join('\n');
    // Numbers are never reused: a request forgotten and seen again gets a new one (its answers are computed again).
    let key = this.#requestKeys.get(named);
    if (key === undefined) {
      key = this.#nextRequestKey++;
      this.#requestKeys.set(named, key);
    }
    return { mapId, key, text: named };
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
}
