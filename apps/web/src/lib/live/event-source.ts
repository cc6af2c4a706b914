import type { MapEvent } from '../api/map-event.ts';

/** Receives a subscription's events until it fails or ends. */
export interface EventSink {
  next(event: MapEvent): void;
  error(error: unknown): void;
  complete(): void;
}

/** Subscribes to a map's events after a sequence number; returns the unsubscribe function. */
export interface MapEventSource {
  subscribe(mapId: string, after: number, sink: EventSink): () => void;
  /** Calls `listener` each time the socket (re)connects; returns a function that stops listening. */
  onConnected(listener: () => void): () => void;
}
