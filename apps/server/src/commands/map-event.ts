import type { MapEventPayloads, MapEventType } from './event-contracts.ts';

export type { MapEventPayloads, MapEventType } from './event-contracts.ts';

/**
 * An event not yet stored: what a command emits. Its payload follows the type's current contract
 * (`event-contracts.ts`), built from rows by the explicit mappings of `event-snapshots.ts`.
 */
export type PendingEvent = { [K in MapEventType]: { type: K; payload: MapEventPayloads[K] } }[MapEventType];

/** A stored event of one type: committed with its per-map sequence number before anyone is told. */
export interface StoredEvent<K extends MapEventType> {
  type: K;
  payload: MapEventPayloads[K];
  mapId: string;
  seq: number;
  createdAt: string;
  /** The map's owner: whose feed the event is in (null only for the events of maps deleted before feeds existed). */
  ownerId: string | null;
  /** Its position in its owner's feed: consecutive per owner, in commit order. */
  feedSeq: number | null;
}

/** Any stored event. */
export type MapEvent = { [K in MapEventType]: StoredEvent<K> }[MapEventType];
