import type { SuggestionKind } from '../domain/enums.ts';
import type { DependencyRecord, MapRecord, NodeRecord } from '../domain/records.ts';
import type { SuggestedChange } from '../graphs/critic/schemas.ts';
import type { Idempotent } from './store-port.ts';

/** A node as the critic reads it: with its version, so a suggestion knows what it was based on. */
export interface ScopedNode extends NodeRecord {
  version: number;
}

/** A suggestion the person dismissed: what it found, the change it proposed and the node versions it was based on. */
export interface DismissedFinding {
  kind: SuggestionKind;
  nodeIds: string[];
  nodeVersions: Record<string, number>;
  explanation: string;
  change: SuggestedChange;
}

/** What a review looks at: the map, and the subtree under `rootId` (the whole tree when null) in tree order. */
export interface CriticScope {
  map: MapRecord;
  rootId: string | null;
  nodes: ScopedNode[];
  /** Dependency edges among those nodes. */
  dependencies: DependencyRecord[];
  /** The map's dismissed suggestions, newest first (see `standingDismissals` for those that still hold). */
  dismissed: DismissedFinding[];
}

/** One suggestion to post: a finding with the nodes it concerns (by id, with their versions) and its change. */
export interface SuggestionInput {
  kind: SuggestionKind;
  nodeIds: string[];
  nodeVersions: Record<string, number>;
  explanation: string;
  change: SuggestedChange;
  /** Names it within its run (idempotent posting). */
  key: string;
}

/** How the critic reads a map and posts what it finds; posting is a command with events, like every write. */
export interface CriticStorePort {
  /** Reads the map and the subtree under `nodeId` (the whole tree when null). */
  readScope(mapId: string, nodeId: string | null): Promise<CriticScope>;
  /** Posts a run's suggestions in one change (once per key); returns their ids in order. */
  postSuggestions(runId: string, suggestions: SuggestionInput[], options?: Idempotent): Promise<string[]>;
}
