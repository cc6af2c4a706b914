import { recordOf } from '../api/json.ts';
import type { MapStore } from '../map/map-store.svelte.ts';
import type { MapEventSource } from './event-source.ts';

/**
 * The state of a map's live feed, shown in the workspace's status bar: `failed` when the source gave
 * up (its retries ran out, or the server refused the subscription) and only a reload reconnects.
 */
export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'failed' | 'closed';

/**
 * Keeps a {@link MapStore} in step with the server: subscribes to the map's events after the store's
 * `lastSeq`. Reconnecting after a drop is the source's job (graphql-ws, with its backoff); each time it
 * sends the subscription again it reads the store's `lastSeq` at that moment, so nothing is lost and
 * nothing is applied twice. An event that would leave a gap, or a stream the server ended while the map
 * still exists, makes the feed subscribe again from the store's `lastSeq`.
 */
export class MapFeed {
  state = $state<FeedState>('connecting');
  /** How many times the feed resumed: reconnects after a drop and resubscriptions. */
  resumes = $state(0);
  /** Why the feed failed, when it did. */
  error = $state<string | null>(null);

  #unsubscribe: (() => void) | null = null;
  #stopConnection: (() => void) | null = null;
  #stopped = false;
  #generation = 0;

  constructor(
    private readonly store: MapStore,
    private readonly source: MapEventSource,
    private readonly mapId: string,
  ) {}

  /** Starts following the map. */
  start(): void {
    this.#stopped = false;
    this.#stopConnection = this.source.onConnection({
      connected: (retry) => {
        if (this.#stopped || this.state === 'failed') return;
        this.state = 'live';
        if (retry) this.resumes += 1;
      },
      closed: () => {
        if (!this.#stopped && this.state !== 'failed') this.state = 'reconnecting';
      },
    });
    this.#subscribe();
  }

  /** Stops following the map. */
  stop(): void {
    this.#stopped = true;
    this.state = 'closed';
    this.#stopConnection?.();
    this.#stopConnection = null;
    this.#drop();
  }

  #subscribe(): void {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation && !this.#stopped;
    this.#unsubscribe = this.source.subscribe(this.mapId, () => this.store.lastSeq, {
      next: (event) => {
        if (!current()) return;
        this.state = 'live';
        if (this.store.apply(event) === 'gap') this.#resubscribe();
      },
      error: (error) => {
        if (!current()) return;
        this.#drop();
        this.state = 'failed';
        this.error = describeFailure(error);
      },
      complete: () => {
        if (!current()) return;
        if (this.store.deleted) this.stop();
        else this.#resubscribe();
      },
    });
  }

  #drop(): void {
    this.#generation++;
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = null;
    unsubscribe?.();
  }

  #resubscribe(): void {
    this.#drop();
    this.resumes += 1;
    this.#subscribe();
  }
}

/** A readable reason from what the source failed with: an Error, a socket close event, or anything else. */
function describeFailure(error: unknown): string {
  if (error instanceof Error) return error.message;
  const close = recordOf(error);
  if (typeof close.code === 'number')
    return `connection closed (${close.code}${close.reason ? `: ${close.reason}` : ''})`;
  return String(error);
}
