import type { MapVersion } from '@thinkingmap/db';
import { LRUCache } from 'lru-cache';
import { MapVersionReads } from './map-version-reads.ts';

/** What a stored answer depends on of its map's row: who may read it, and the versions its key is made of. */
export type KnownVersion = Pick<MapVersion, 'ownerId' | 'lastSeq' | 'tokensUsed' | 'updatedAt'>;

/** A committed map event, as far as versions go. */
interface VersionEvent {
  type: string;
  mapId: string;
  seq: number;
  ownerId: string | null;
  /** The time of its change, which the map's `updatedAt` takes (the map log writes both). */
  createdAt: string;
}

/**
 * What the map versions need of the event bus (`EventBus` is one): every event delivered on this instance, at once;
 * whether it hears every event committed from now on; and the signal a map's row changed without an event.
 */
export interface MapEventFeed {
  /** Calls `listener` with each batch of one command's events delivered here, before the publisher goes on. */
  onDelivered(listener: (events: readonly VersionEvent[]) => void): () => void;
  /** Whether every event committed from now on reaches this instance (with Redis: while subscribed). */
  live(): boolean;
  /** Signals to every instance; `reconnected` after the bus came back (what was sent meanwhile never arrives). */
  onSignal(listener: (signal: { type: string; mapId?: string }) => void, reconnected?: () => void): () => void;
}

/** The signal a map's row changed without an event (its `tokensUsed`): each instance forgets the version it knew. */
export const MAP_ROW_CHANGED = 'map-row-changed';

/** A row read in flight: `stale` once anything about its map happened after it started. */
interface Attempt {
  stale: boolean;
}

/**
 * The version of each map as its events tell it, so a map read answered from a stored answer reads no row. A map's
 * version is learnt by reading its row (`Database.mapVersion`, the one way to learn a version not known here: the
 * first read of a map, or after anything below); each event of the map then moves its `lastSeq` on, when it follows
 * the version known (else the version is forgotten: a gap). Forgotten too: every version when the bus reconnects
 * (events were lost meanwhile) and while it is not live, a map's version on its MapDeleted, on an event naming another
 * owner, on the signal that its row changed without an event (the token ledger), and `vouchMs` after it was read
 * (a Redis message can be lost without a reconnection: the same bound as the streams' gap watch). A row read that
 * started before any of these is used for its own request but not kept.
 *
 * Events are delivered on the instance that published them before the command returns, so a change is known here
 * before its response is sent; on another instance, once its Redis message arrives.
 */
export class MapVersions {
  readonly #feed: MapEventFeed | undefined;
  readonly #reads: MapVersionReads;
  readonly #known: LRUCache<string, KnownVersion>;
  readonly #reading = new Map<string, Set<Attempt>>();

  /**
   * `feed` absent: no version is kept, every request reads its map's row (instances that share a database but no
   * events). `maxMaps` versions are kept (10,000), least recently used out, each for `vouchMs` (5 s).
   */
  constructor(
    read: (mapId: string) => Promise<MapVersion | null>,
    feed?: MapEventFeed,
    { maxMaps = 10_000, vouchMs = 5_000 } = {},
  ) {
    this.#reads = new MapVersionReads(read);
    this.#known = new LRUCache({ max: maxMaps, ttl: vouchMs });
    this.#feed = feed;
    feed?.onDelivered((events) => this.#delivered(events));
    feed?.onSignal(
      (signal) => {
        if (signal.type === MAP_ROW_CHANGED && signal.mapId) this.#forget(signal.mapId);
      },
      () => this.#forgetAll(),
    );
  }

  /** The map's version as known here without a read, or undefined: then {@link MapVersions.read} it. */
  known(mapId: string): KnownVersion | undefined {
    return this.#feed?.live() ? this.#known.get(mapId) : undefined;
  }

  /** The map's row as read after this call (see {@link MapVersionReads}), kept as its version when nothing intervened. */
  read(mapId: string): Promise<KnownVersion | null> {
    if (!this.#feed) return this.#reads.read(mapId);
    const attempt: Attempt = { stale: !this.#feed.live() };
    const attempts = this.#reading.get(mapId) ?? new Set<Attempt>();
    this.#reading.set(mapId, attempts);
    attempts.add(attempt);
    const settled = () => {
      attempts.delete(attempt);
      if (attempts.size === 0 && this.#reading.get(mapId) === attempts) this.#reading.delete(mapId);
    };
    return this.#reads.read(mapId).then(
      (row) => {
        settled();
        if (!row || attempt.stale || !this.#feed?.live()) return row;
        const known = this.#known.get(mapId);
        // Another request's read of the same row: keep one object, so keys made for it are reused.
        const { ownerId, lastSeq, tokensUsed, updatedAt } = row;
        if (
          known?.lastSeq === lastSeq &&
          known.tokensUsed === tokensUsed &&
          known.updatedAt === updatedAt &&
          known.ownerId === ownerId
        )
          return known;
        const version: KnownVersion = { ownerId, lastSeq, tokensUsed, updatedAt };
        this.#known.set(mapId, version);
        return version;
      },
      (error: unknown) => {
        settled();
        throw error;
      },
    );
  }

  #delivered(events: readonly VersionEvent[]) {
    const first = events[0];
    const last = events.at(-1);
    if (!first || !last) return;
    this.#staleReads(first.mapId);
    const known = this.#known.peek(first.mapId);
    if (!known || last.seq <= known.lastSeq) return;
    const follows = first.seq === known.lastSeq + 1 && events.every((e) => e.ownerId === known.ownerId);
    if (!follows || events.some((e) => e.type === 'MapDeleted')) return void this.#known.delete(first.mapId);
    // Set without touching its age: a version is read again `vouchMs` after its row was read, events or not.
    this.#known.set(first.mapId, { ...known, lastSeq: last.seq, updatedAt: last.createdAt }, { noUpdateTTL: true });
  }

  #forget(mapId: string) {
    this.#staleReads(mapId);
    this.#known.delete(mapId);
  }

  #forgetAll() {
    for (const mapId of this.#reading.keys()) this.#staleReads(mapId);
    this.#known.clear();
  }

  #staleReads(mapId: string) {
    for (const attempt of this.#reading.get(mapId) ?? []) attempt.stale = true;
  }
}
