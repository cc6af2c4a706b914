import type {
  ContextItemRecord,
  ConversationKind,
  MapRecord,
  MessageRecord,
  NodeRecord,
} from '@thinkingmap/agent-core';
import type { ContextItem, Map as MapRow, Message, Node } from '@thinkingmap/db';
import { z } from 'zod';

type Row<T> = {
  [K in keyof T]: T[K] extends Date ? Date | string : T[K] extends Date | null ? Date | string | null : T[K];
};

/** A message's metadata (a JSON column): an object, or nothing. */
const MESSAGE_METADATA = z.record(z.string(), z.unknown()).nullable();

/** A JSON column holding a list of strings (constraints), as a string array; anything else reads as empty. */
export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** A map row as agents see it. */
export function toMapRecord(map: Row<MapRow>): MapRecord {
  return {
    id: map.id,
    title: map.title,
    problem: map.problem,
    goal: map.goal,
    constraints: strings(map.constraints),
    language: map.language,
    tokenBudgetLeft: map.tokenBudget === null ? null : Math.max(0, map.tokenBudget - map.tokensUsed),
  };
}

/** A node row (or a command receipt of one) as agents see it. */
export function toNodeRecord(node: Row<Node>): NodeRecord {
  return {
    id: node.id,
    mapId: node.mapId,
    parentId: node.parentId,
    position: node.position,
    question: node.question,
    goal: node.goal,
    constraints: strings(node.constraints),
    type: node.type,
    status: node.status,
    intent: node.intent,
    strategy: node.strategy,
    conclusion: node.conclusion,
    conclusionKind: node.conclusionKind,
    divergentRole: node.divergentRole,
    divergentLevel: node.divergentLevel,
    completionScore: node.completionScore,
  };
}

/** A context item as agents see it. */
export function toContextItemRecord(item: Row<ContextItem>): ContextItemRecord {
  return { id: item.id, title: item.title, content: item.content, createdAt: new Date(item.createdAt) };
}

/** A message as agents see it. */
export function toMessageRecord(message: Row<Message>, nodeId: string, conversation: ConversationKind): MessageRecord {
  return {
    id: message.id,
    nodeId,
    conversation,
    parentId: message.parentId,
    role: message.role,
    kind: message.kind,
    content: message.content,
    metadata: MESSAGE_METADATA.parse(message.metadata ?? null),
    createdAt: new Date(message.createdAt),
  };
}
