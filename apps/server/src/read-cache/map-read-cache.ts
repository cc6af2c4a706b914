import type { EventBus } from '../events/event-bus.ts';

/**
 * Keeps the results of a map's hot reads (the node list of a large map) in memory until the map's own
 * next event. Events are published only after commit, so a cached result is never older than the last
 * event a subscriber has seen. Results are shared between requests and must not be mutated.
 */
export class MapReadCache {
  #maps = new Map<string, Map<string, Promise<unknown>>>();
  #stop: () => void;

  constructor(
    bus: EventBus,
    private readonly maxMaps = 200,
  ) {
    this.#stop = bus.listenAll((event) => this.invalidate(event.mapId));
  }

  /** Returns the cached result of `key` for `mapId`, loading it once if absent. Failed loads are not kept. */
  load<T>(mapId: string, key: string, loader: () => Promise<T>): Promise<T> {
    let entries = this.#maps.get(mapId);
    if (entries) {
      // Re-insert to keep the map order least-recently-used first.
      this.#maps.delete(mapId);
      this.#maps.set(mapId, entries);
    } else {
      entries = new Map();
      this.#maps.set(mapId, entries);
      if (this.#maps.size > this.maxMaps) this.#maps.delete(this.#maps.keys().next().value as string);
    }
    const hit = entries.get(key);
    if (hit) return hit as Promise<T>;
    const loading = loader();
    entries.set(key, loading);
    loading.catch(() => {
      if (this.#maps.get(mapId)?.get(key) === loading) this.#maps.get(mapId)?.delete(key);
    });
    return loading;
  }

  /** Forgets everything cached for a map. */
  invalidate(mapId: string): void {
    this.#maps.delete(mapId);
  }

  close(): void {
    this.#stop();
    this.#maps.clear();
  }
}
