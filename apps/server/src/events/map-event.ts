import type { AgentQuestion, AgentRun, ContextItem, Dependency, Map as MapRow, Message, Node } from '@thinkingmap/db';

/** A database row as it travels inside an event: dates become ISO strings. */
export type Wire<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** What each event type carries. Payloads are small: the changed rows, never a whole map. */
export interface MapEventPayloads {
  MapUpdated: { map: Wire<MapRow>; fields: string[] };
  MapDeleted: { mapId: string };
  NodeCreated: { node: Wire<Node> };
  NodeUpdated: { node: Wire<Node>; fields: string[] };
  NodeDeleted: { nodeIds: string[]; dependencyIds: string[] };
  NodeConcluded: { node: Wire<Node> };
  DependencyAdded: { dependency: Wire<Dependency> };
  DependencyRemoved: { dependency: Wire<Dependency> };
  ContextUpdated: { nodeId: string; action: 'ADDED' | 'REMOVED'; item: Wire<ContextItem> };
  MessagePosted: { message: Wire<Message>; nodeId: string };
  ConversationCleared: { nodeId: string; conversationId: string; kind: string; clearedCount: number };
  RunStarted: { run: Wire<AgentRun> };
  AgentStep: {
    runId: string;
    graph: string;
    nodeId: string | null;
    step: string;
    phase: 'ENTERED' | 'LEFT';
    outcome: string | null;
    durationMs: number | null;
  };
  AgentQuestion: { question: Wire<AgentQuestion> };
  QuestionResolved: { question: Wire<AgentQuestion> };
  AgentTokens: { runId: string; nodeId: string | null; text: string };
  RunFinished: { run: Wire<AgentRun> };
  RunFailed: { run: Wire<AgentRun>; code: string; reason: string };
}

/** Every event type name. */
export type MapEventType = keyof MapEventPayloads;

/** An event not yet stored: what a command emits. */
export type PendingEvent = { [K in MapEventType]: { type: K; payload: MapEventPayloads[K] } }[MapEventType];

/** A stored event of one type: committed with its per-map sequence number before anyone is told. */
export interface StoredEvent<K extends MapEventType> {
  type: K;
  payload: MapEventPayloads[K];
  mapId: string;
  seq: number;
  createdAt: string;
}

/** Any stored event. */
export type MapEvent = { [K in MapEventType]: StoredEvent<K> }[MapEventType];

/** Converts a row to its wire form (dates to ISO strings) for an event payload. */
export function toWire<T extends object>(row: T): Wire<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = value instanceof Date ? value.toISOString() : value;
  return out as Wire<T>;
}
