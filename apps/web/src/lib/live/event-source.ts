import type { MapEvent } from '../api/results.ts';

/** Receives a subscription's events until it fails or ends. */
export interface EventSink {
  next(event: MapEvent): void;
  error(error: unknown): void;
  complete(): void;
}

/** What happens to the connection under the subscriptions. */
export interface ConnectionListener {
  /** Connected; `retry` when this is a reconnect after a drop (subscriptions are sent again). */
  connected(retry: boolean): void;
  /** The connection dropped; the source reconnects by itself (with its backoff) unless it gives up. */
  closed(): void;
}

/**
 * Subscribes to a map's events. The source reconnects after a drop and sends each subscription again:
 * `after` is read every time a subscription is sent, so a resumed subscription starts after the last
 * event applied, and nothing is lost or repeated.
 */
export interface MapEventSource {
  /** Subscribes to `mapId`'s events after `after()`; returns the unsubscribe function. */
  subscribe(mapId: string, after: () => number, sink: EventSink): () => void;
  /** Follows the connection; returns a function that stops listening. */
  onConnection(listener: ConnectionListener): () => void;
}
