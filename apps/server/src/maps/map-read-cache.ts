import { LRUCache } from 'lru-cache';

/** The map a cached read belongs to, as the request read it: its id and the sequence of its latest event. */
export interface MapVersion {
  id: string;
  lastSeq: number;
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
 * correct without any message from other instances. Bounded by the number of rows kept, least recently
 * used first out. Results are shared between requests and must not be mutated.
 */
export class MapReadCache {
  readonly #entries: LRUCache<string, Entry>;

  /** `maxRows`: rows kept over all maps (a 1,000-node map's node list is 1,000). */
  constructor(maxRows = 50_000) {
    this.#entries = new LRUCache({ maxSize: maxRows });
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
    // Its size is known once loaded; until then it counts as one row.
    this.#entries.set(id, entry, { size: 1 });
    entry.rows.then(
      (rows) => {
        // A new object: lru-cache only re-measures an entry whose value changes.
        if (this.#entries.peek(id) === entry) this.#entries.set(id, { ...entry }, { size: Math.max(1, rows.length) });
      },
      () => {
        if (this.#entries.peek(id) === entry) this.#entries.delete(id);
      },
    );
    return entry.rows as Promise<T>;
  }
}
