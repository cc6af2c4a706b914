import { Annotation } from '@langchain/langgraph';
import type { Language } from '../../domain/enums.ts';
import type { CriticScope } from '../../ports/critic-store-port.ts';
import type { CriticReview } from './schemas.ts';

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });

/** State of the critic graph. */
export const CriticState = Annotation.Root({
  /** The map reviewed (input). */
  mapId: last<string>(() => ''),
  /** The root of the reviewed subtree; null reviews the whole map (input). Kept out of step events' node. */
  scopeNodeId: last<string | null>(() => null),
  /** The map's language. */
  language: last<Language>(() => 'en'),
  /** What the critic read. */
  scope: last<CriticScope | null>(() => null),
  /** The model's review, as it answered. */
  review: last<CriticReview | null>(() => null),
  /** The suggestions posted, by id; findings that named no node of the scope or proposed nothing valid are dropped. */
  suggestionIds: last<string[]>(() => []),
  /** How many findings were dropped as invalid. */
  dropped: last<number>(() => 0),
  /** How many findings were not posted because they repeat what the person dismissed (nothing changed since). */
  repeated: last<number>(() => 0),
  /** Always null: the run belongs to the map, not to a node (kept for step instrumentation). */
  nodeId: last<string | null>(() => null),
});
/** @see CriticState */
export type CriticStateType = typeof CriticState.State;
/** @see CriticState */
export type CriticUpdate = typeof CriticState.Update;
