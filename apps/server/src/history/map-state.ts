import { z } from 'zod';
import {
  type ContextItemSnapshot,
  contextItemSnapshot,
  type DependencySnapshot,
  dependencySnapshot,
  type MapSnapshot,
  mapSnapshot,
  messageSnapshot,
  type NodeSnapshot,
  nodeSnapshot,
} from '../commands/event-snapshots.ts';
import type { MapEvent } from '../commands/map-event.ts';
import type { NodeArchive } from '../commands/node-archive.ts';
import { type SuggestionSnapshot, suggestionSnapshot } from '../commands/suggestion-snapshot.ts';

/** A message as the history tracks it: with the node whose conversation holds it. */
export const messageEntity = messageSnapshot.extend({ nodeId: z.string() });
export type MessageEntity = z.infer<typeof messageEntity>;

/** An entity of a map the history tracks. */
export type Entity =
  | { kind: 'MAP'; id: string; value: MapSnapshot }
  | { kind: 'NODE'; id: string; value: NodeSnapshot }
  | { kind: 'DEPENDENCY'; id: string; value: DependencySnapshot }
  | { kind: 'CONTEXT_ITEM'; id: string; value: ContextItemSnapshot }
  /** A message shown in its conversation; a hidden one (cleared, or taken back) is absent. */
  | { kind: 'MESSAGE'; id: string; value: MessageEntity }
  /**
   * A critic's suggestion: the person's decision on it (its status) is a change of theirs. Its status is taken back
   * by `takeBackSuggestionDecisions`, never by `applyState`.
   */
  | { kind: 'SUGGESTION'; id: string; value: SuggestionSnapshot };

export type EntityKind = Entity['kind'];

/** A map as its log says it was: every entity by key (`NODE:<id>`), folded from the events' snapshots. */
export type MapState = Map<string, Entity>;

/**
 * What deleted nodes had besides their tracked fields (conversations, context items), by node id: from the
 * latest deletion of each, which holds everything said on it until then. A recreated node gets it back.
 */
export type NodeArchives = Map<string, NodeArchive>;

/** Keeps the archive a deletion carries (a deletion logged before archives existed carries none). */
export function keepArchives(archives: NodeArchives, event: MapEvent): void {
  if (event.type !== 'NodeDeleted') return;
  for (const archive of event.payload.archive ?? []) archives.set(archive.nodeId, archive);
}

export const entityKey = (kind: EntityKind, id: string) => `${kind}:${id}`;

/** The value of an entity's field by name (the tracked fields are named by the data they describe). */
export function fieldOf(entity: Entity | null | undefined, field: string): unknown {
  return entity && field in entity.value ? Reflect.get(entity.value, field) : undefined;
}

/** The entity with some fields set to other values, checked against its snapshot's contract. */
export function withFields(entity: Entity, values: Iterable<readonly [string, unknown]>): Entity {
  const value = { ...entity.value, ...Object.fromEntries(values) };
  switch (entity.kind) {
    case 'MAP':
      return { ...entity, value: mapSnapshot.parse(value) };
    case 'NODE':
      return { ...entity, value: nodeSnapshot.parse(value) };
    case 'DEPENDENCY':
      return { ...entity, value: dependencySnapshot.parse(value) };
    case 'CONTEXT_ITEM':
      return { ...entity, value: contextItemSnapshot.parse(value) };
    case 'MESSAGE':
      return { ...entity, value: messageEntity.parse(value) };
    case 'SUGGESTION':
      return { ...entity, value: suggestionSnapshot.parse(value) };
  }
}

/** The fields a change to an entity is described and reverted by (bookkeeping fields are left out). */
export const TRACKED_FIELDS: Record<EntityKind, readonly string[]> = {
  // Every field the person sets on a map, and its status (completed when the root concludes, active again when
  // that is taken back). What runs spend (`tokensUsed`) is bookkeeping.
  MAP: ['title', 'problem', 'goal', 'constraints', 'language', 'mode', 'status', 'autoRun', 'tokenBudget'],
  NODE: [
    'parentId',
    'position',
    'question',
    'goal',
    'constraints',
    'type',
    'status',
    'intent',
    'strategy',
    'conclusion',
    'conclusionKind',
    'divergentRole',
    'divergentLevel',
    'completionScore',
    'concludedAt',
    'staleReason',
    'staleSourceId',
    'staleSourceQuestion',
    'staleSince',
  ],
  DEPENDENCY: ['nodeId', 'dependsOnId'],
  CONTEXT_ITEM: ['nodeId', 'title', 'content'],
  MESSAGE: ['content'],
  SUGGESTION: ['status'],
};

/**
 * Applies one event to the state (telling `onTouch` each entity's value before) and returns the keys of the entities it changed (none for progress events:
 * steps, streamed text, runs, questions).
 */
export function applyEvent(
  state: MapState,
  event: MapEvent,
  onTouch?: (key: string, previous: Entity | null) => void,
): string[] {
  const put = (entity: Entity) => {
    const key = entityKey(entity.kind, entity.id);
    onTouch?.(key, state.get(key) ?? null);
    state.set(key, entity);
    return [key];
  };
  const remove = (key: string) => {
    onTouch?.(key, state.get(key) ?? null);
    state.delete(key);
  };
  switch (event.type) {
    case 'MapCreated':
    case 'MapUpdated':
      return put({ kind: 'MAP', id: event.payload.map.id, value: event.payload.map });
    case 'NodeCreated':
    case 'NodeUpdated':
    case 'NodeConcluded':
    case 'NodeStale':
      return put({ kind: 'NODE', id: event.payload.node.id, value: event.payload.node });
    case 'NodeDeleted': {
      const keys = [
        ...event.payload.nodeIds.map((id) => entityKey('NODE', id)),
        ...event.payload.dependencyIds.map((id) => entityKey('DEPENDENCY', id)),
      ];
      for (const key of keys) remove(key);
      // The context items and messages of the deleted nodes go with them, kept in the deletion's archive (which
      // brings them back with the node): the deletion does not list them.
      const nodes = new Set(event.payload.nodeIds);
      for (const [key, e] of state)
        if ((e.kind === 'CONTEXT_ITEM' || e.kind === 'MESSAGE') && nodes.has(e.value.nodeId)) state.delete(key);
      return keys;
    }
    case 'DependencyAdded':
      return put({ kind: 'DEPENDENCY', id: event.payload.dependency.id, value: event.payload.dependency });
    case 'DependencyRemoved': {
      const key = entityKey('DEPENDENCY', event.payload.dependency.id);
      remove(key);
      return [key];
    }
    case 'ContextUpdated': {
      const { item, action } = event.payload;
      if (action !== 'REMOVED') return put({ kind: 'CONTEXT_ITEM', id: item.id, value: item });
      const key = entityKey('CONTEXT_ITEM', item.id);
      remove(key);
      return [key];
    }
    case 'MessagePosted':
    case 'MessagesChanged': {
      const { nodeId } = event.payload;
      const messages = event.type === 'MessagePosted' ? [event.payload.message] : event.payload.messages;
      return messages.flatMap((message) => {
        const key = entityKey('MESSAGE', message.id);
        if (message.deletedAt === null) return put({ kind: 'MESSAGE', id: message.id, value: { ...message, nodeId } });
        remove(key);
        return [key];
      });
    }
    case 'SuggestionPosted':
    case 'SuggestionResolved':
      return put({ kind: 'SUGGESTION', id: event.payload.suggestion.id, value: event.payload.suggestion });
    case 'ConversationCleared': {
      const { conversationId } = event.payload;
      const cleared = [...state.values()].filter(
        (e) => e.kind === 'MESSAGE' && e.value.conversationId === conversationId,
      );
      return cleared.map((e) => {
        const key = entityKey(e.kind, e.id);
        remove(key);
        return key;
      });
    }
    default:
      return [];
  }
}
