import type { MapStore } from '../map/map-store.svelte.ts';
import type { MapEventSource } from './event-source.ts';

/** The state of a map's live feed, shown in the workspace's status bar. */
export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'closed';

/** Options of {@link MapFeed}. */
export interface MapFeedOptions {
  /** First wait before resubscribing after a drop; doubles up to `maxDelayMs`. */
  retryDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Keeps a {@link MapStore} in step with the server: subscribes to the map's events after the store's
 * `lastSeq`; when the socket drops (or an event would leave a gap) it subscribes again after the store's
 * `lastSeq` at that moment, so nothing is lost and nothing is applied twice.
 */
export class MapFeed {
  state = $state<FeedState>('connecting');
  /** How many times the feed resubscribed after a drop. */
  resumes = $state(0);

  #unsubscribe: (() => void) | null = null;
  #stopConnected: (() => void) | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #delay: number;
  #stopped = false;
  #generation = 0;

  constructor(
    private readonly store: MapStore,
    private readonly source: MapEventSource,
    private readonly mapId: string,
    private readonly options: MapFeedOptions = {},
  ) {
    this.#delay = options.retryDelayMs ?? 250;
  }

  /** Starts following the map. */
  start(): void {
    this.#stopped = false;
    this.#stopConnected = this.source.onConnected(() => {
      if (!this.#stopped) this.state = 'live';
      this.#delay = this.options.retryDelayMs ?? 250;
    });
    this.#subscribe();
  }

  /** Stops following the map. */
  stop(): void {
    this.#stopped = true;
    this.state = 'closed';
    if (this.#timer) clearTimeout(this.#timer);
    this.#stopConnected?.();
    this.#drop();
  }

  #subscribe(): void {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation && !this.#stopped;
    this.#unsubscribe = this.source.subscribe(this.mapId, this.store.lastSeq, {
      next: (event) => {
        if (!current()) return;
        this.state = 'live';
        if (this.store.apply(event) === 'gap') this.#resume();
      },
      error: () => current() && this.#resume(),
      complete: () => {
        if (!current()) return;
        if (this.store.deleted) this.stop();
        else this.#resume();
      },
    });
  }

  #drop(): void {
    this.#generation++;
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = null;
    unsubscribe?.();
  }

  #resume(): void {
    this.#drop();
    this.state = 'reconnecting';
    const delay = this.#delay;
    this.#delay = Math.min(this.options.maxDelayMs ?? 4000, this.#delay * 2);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#stopped) return;
      this.resumes += 1;
      this.#subscribe();
    }, delay);
  }
}
