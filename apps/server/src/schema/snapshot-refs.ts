import type PrismaTypes from '@thinkingmap/db/pothos-types';
import type { DecisionSnapshot } from '../commands/decision-snapshot.ts';
import type {
  ContextItemSnapshot,
  DependencySnapshot,
  MapSnapshot,
  MessageSnapshot,
  NodeSnapshot,
  RunSnapshot,
} from '../commands/event-snapshots.ts';
import type { SuggestionSnapshot } from '../commands/suggestion-snapshot.ts';
import { builder } from './builder.ts';

/**
 * A ref for values of `Shape` served as the object type a Prisma model already implements (`Node`, `Map`, …),
 * so the schema gains no type: an event's snapshot is shown as its row was when the event happened. That type
 * reads from its parent only the scalar fields a snapshot names one by one (relations load by the parent's
 * id); `event-contracts.test.ts` checks every snapshot against the fields its type exposes.
 */
function servedAs<Shape extends { id: string }>(model: keyof PrismaTypes) {
  const ref = builder.objectRef<Shape>(model);
  builder.configStore.associateParamWithRef(ref, model);
  return ref;
}

/** Each snapshot an event carries, served as the GraphQL object type of its row. */
export const NodeSnapshotRef = servedAs<NodeSnapshot>('Node');
export const DependencySnapshotRef = servedAs<DependencySnapshot>('Dependency');
export const ContextItemSnapshotRef = servedAs<ContextItemSnapshot>('ContextItem');
export const MessageSnapshotRef = servedAs<MessageSnapshot>('Message');
export const MapSnapshotRef = servedAs<MapSnapshot>('Map');
export const RunSnapshotRef = servedAs<RunSnapshot>('AgentRun');
export const DecisionSnapshotRef = servedAs<DecisionSnapshot>('Decision');
export const SuggestionSnapshotRef = servedAs<SuggestionSnapshot>('CriticSuggestion');
