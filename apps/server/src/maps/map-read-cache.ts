import { LRUCache } from 'lru-cache';

/** The map a cached read belongs to, as the request read it: its id and the sequence of its latest event. */
export interface MapVersion {
  id: string;
  lastSeq: number;
}

/** What a bounded cache holds now (reported by the `thinkingmap_cache_*` gauges). */
export interface CacheHeld {
  /** The cache's estimate of the memory its entries hold, in bytes: what its bound is measured in. */
  bytes: number;
  entries: number;
}

interface Entry {
  /** The map's `lastSeq` when the read started: the rows are at least that new. */
  seq: number;
  rows: Promise<readonly unknown[]>;
}

/**
 * Keeps the results of a map's hot reads (the node list of a large map) in memory, keyed by the map's
 * `lastSeq`. Every change to a map's data bumps `lastSeq` in the same transaction, and each request reads
 * the map row first, so a cached read older than the row the request sees is never served: the cache is
 * correct without any message from other instances. Bounded by an estimate of the bytes its rows hold (nested
 * relations included), least recently used first out. Results are shared between requests and must not be mutated.
 */
export class MapReadCache {
  readonly #entries: LRUCache<string, Entry>;

  /** `maxBytes`: the estimated memory of the rows kept over all maps (32 MB). */
  constructor(maxBytes = 32 * 1024 * 1024) {
    this.#entries = new LRUCache({ maxSize: maxBytes });
  }

  /**
   * Returns the rows of read `key` of `map`, loading them when nothing is cached at least as new as
   * `map.lastSeq`. Concurrent loads of one read share one query; a failed load is not kept.
   */
  load<T extends readonly unknown[]>(map: MapVersion, key: string, loader: () => Promise<T>): Promise<T> {
    const id = `${map.id}\n${key}`;
    const hit = this.#entries.get(id);
    if (hit && hit.seq >= map.lastSeq) return hit.rows as Promise<T>;
    const entry: Entry = { seq: map.lastSeq, rows: loader() };
    // Its size is known once loaded; until then it counts as one byte.
    this.#entries.set(id, entry, { size: 1 });
    entry.rows.then(
      (rows) => {
        // Kept as the rows alone, weighed: the loader's promise (Prisma's) holds its query and callbacks.
        const loaded: Entry = { seq: entry.seq, rows: Promise.resolve(rows) };
        if (this.#entries.peek(id) === entry) this.#entries.set(id, loaded, { size: keptBytes(id, rows) });
      },
      () => {
        if (this.#entries.peek(id) === entry) this.#entries.delete(id);
      },
    );
    return entry.rows as Promise<T>;
  }

  /** What the cache holds now. */
  held(): CacheHeld {
    return { bytes: this.#entries.calculatedSize, entries: this.#entries.size };
  }
}

/** What an entry of the cache's own weighs beside its rows: the entry, its settled promise and lru-cache's slots. */
const ENTRY_BYTES = 160;

/**
 * What the cache holds for one read: its rows, and its key (the map's id and the read's key, whose query text runs to
 * hundreds of characters for a whole-map read) with the entry around them.
 */
export function keptBytes(id: string, rows: unknown): number {
  return approximateBytes(id) + ENTRY_BYTES + approximateBytes(rows);
}

/**
 * An estimate of the memory `value` holds: two bytes a character of its strings and a fixed cost per value, object and
 * field, whatever the depth (a node's nested relations count). Errs high for Latin text, which V8 keeps in one byte.
 */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  if (value instanceof Date) return 48;
  if (ArrayBuffer.isView(value)) return 64 + value.byteLength;
  let bytes = 32;
  for (const field of Object.values(value)) bytes += 16 + approximateBytes(field);
  return bytes;
}
