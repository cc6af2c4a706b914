import {
  AgentGraph,
  type AgentQuestion,
  type AgentRun,
  ConclusionKind,
  type ContextItem,
  ConversationKind,
  DecompositionStrategy,
  type Dependency,
  DivergentRole,
  Language,
  MapMode,
  type Map as MapRow,
  MapStatus,
  type Message,
  MessageKind,
  MessageRole,
  type Node,
  NodeIntent,
  NodeStatus,
  NodeType,
  QuestionKind,
  QuestionStatus,
  RunStatus,
  StaleReason,
} from '@thinkingmap/db';
import { z } from 'zod';

/**
 * What an event says about a row: the fields its GraphQL type exposes, named one by one, with dates as ISO
 * strings. A new column reaches the event log only when it is added here (and the contract's version bumped),
 * never by accident. Relations are not carried: GraphQL loads them by id.
 */

/** A date as events carry it: an ISO string. */
export const isoDate = z.iso.datetime({ offset: true });
const strings = z.array(z.string());
// Text columns written only from these enums' values (RunService, settleRun), checked when read back.
const AGENT_GRAPH = z.enum(AgentGraph);
const QUESTION_KIND = z.enum(QuestionKind);

export const mapSnapshot = z.object({
  id: z.string(),
  title: z.string(),
  problem: z.string(),
  goal: z.string(),
  constraints: strings,
  language: z.enum(Language),
  mode: z.enum(MapMode),
  status: z.enum(MapStatus),
  autoRun: z.boolean(),
  tokenBudget: z.number().int().nullable(),
  tokensUsed: z.number().int(),
  version: z.number().int(),
  lastSeq: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

export const nodeSnapshot = z.object({
  id: z.string(),
  mapId: z.string(),
  parentId: z.string().nullable(),
  position: z.number().int(),
  question: z.string(),
  goal: z.string(),
  constraints: strings,
  type: z.enum(NodeType),
  status: z.enum(NodeStatus),
  intent: z.enum(NodeIntent).nullable(),
  strategy: z.enum(DecompositionStrategy).nullable(),
  conclusion: z.string().nullable(),
  conclusionKind: z.enum(ConclusionKind).nullable(),
  divergentRole: z.enum(DivergentRole).nullable(),
  divergentLevel: z.number().int().nullable(),
  completionScore: z.number().nullable(),
  version: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
  concludedAt: isoDate.nullable(),
  staleReason: z.enum(StaleReason).nullable(),
  staleSourceId: z.string().nullable(),
  staleSourceQuestion: z.string().nullable(),
  staleSince: isoDate.nullable(),
});

export const dependencySnapshot = z.object({
  id: z.string(),
  mapId: z.string(),
  nodeId: z.string(),
  dependsOnId: z.string(),
  createdAt: isoDate,
});

export const contextItemSnapshot = z.object({
  id: z.string(),
  nodeId: z.string(),
  title: z.string(),
  content: z.string(),
  createdAt: isoDate,
});

export const messageSnapshot = z.object({
  id: z.string(),
  conversationId: z.string(),
  parentId: z.string().nullable(),
  role: z.enum(MessageRole),
  kind: z.enum(MessageKind),
  content: z.string(),
  metadata: z.json().nullable(),
  deletedAt: isoDate.nullable(),
  createdAt: isoDate,
});

export const runSnapshot = z.object({
  id: z.string(),
  mapId: z.string(),
  nodeId: z.string().nullable(),
  agent: AGENT_GRAPH,
  status: z.enum(RunStatus),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  raw: z.string().nullable(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** Some of its tokens were counted locally (the endpoint reported no usage). */
  tokensEstimated: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
  finishedAt: isoDate.nullable(),
  /** The run it was forked from (re-run from one of that run's steps with changed input), and the step. */
  forkedFromRunId: z.string().nullable(),
  forkedFromStep: z.string().nullable(),
});

export const questionSnapshot = z.object({
  id: z.string(),
  runId: z.string(),
  nodeId: z.string().nullable(),
  kind: QUESTION_KIND,
  question: z.string(),
  context: z.json(),
  status: z.enum(QuestionStatus),
  expiresAt: isoDate,
});

export const conversationKind = z.enum(ConversationKind);

export type MapSnapshot = z.infer<typeof mapSnapshot>;
export type NodeSnapshot = z.infer<typeof nodeSnapshot>;
export type DependencySnapshot = z.infer<typeof dependencySnapshot>;
export type ContextItemSnapshot = z.infer<typeof contextItemSnapshot>;
export type MessageSnapshot = z.infer<typeof messageSnapshot>;
export type RunSnapshot = z.infer<typeof runSnapshot>;
export type QuestionSnapshot = z.infer<typeof questionSnapshot>;

/**
 * A row as the mappings accept it: straight from Prisma (dates as `Date`), or as an old event stored it
 * (dates as ISO strings, and a field added since then missing).
 */
export type RowLike<T> = {
  [K in keyof T]: T[K] extends Date ? Date | string : T[K] extends Date | null ? Date | string | null : T[K];
};
type Nullable<T> = { [K in keyof T]: null extends T[K] ? T[K] | undefined : T[K] };
type Source<T> = Nullable<RowLike<T>>;

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : value);
const isoOrNull = (value: Date | string | null | undefined) => (value == null ? null : iso(value));
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const JSON_VALUE = z.json();
/** A JSON column's value as events carry it (checked: a column holds JSON, the type of a row only says so). */
export const jsonOf = (value: unknown) => JSON_VALUE.parse(value ?? null);
/** A JSON value other than null: what a required JSON column holds. */
export const someJson = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.json()),
  z.record(z.string(), z.json()),
]);

/** A map row as events carry it. */
export function toMapSnapshot(map: Source<MapRow>): MapSnapshot {
  return {
    id: map.id,
    title: map.title,
    problem: map.problem,
    goal: map.goal,
    constraints: list(map.constraints),
    language: map.language,
    mode: map.mode,
    status: map.status,
    autoRun: map.autoRun,
    tokenBudget: map.tokenBudget ?? null,
    tokensUsed: map.tokensUsed,
    version: map.version,
    lastSeq: map.lastSeq,
    createdAt: iso(map.createdAt),
    updatedAt: iso(map.updatedAt),
  };
}

/** A node row as events carry it. */
export function toNodeSnapshot(node: Source<Node>): NodeSnapshot {
  return {
    id: node.id,
    mapId: node.mapId,
    parentId: node.parentId ?? null,
    position: node.position,
    question: node.question,
    goal: node.goal,
    constraints: list(node.constraints),
    type: node.type,
    status: node.status,
    intent: node.intent ?? null,
    strategy: node.strategy ?? null,
    conclusion: node.conclusion ?? null,
    conclusionKind: node.conclusionKind ?? null,
    divergentRole: node.divergentRole ?? null,
    divergentLevel: node.divergentLevel ?? null,
    completionScore: node.completionScore ?? null,
    version: node.version,
    createdAt: iso(node.createdAt),
    updatedAt: iso(node.updatedAt),
    concludedAt: isoOrNull(node.concludedAt),
    staleReason: node.staleReason ?? null,
    staleSourceId: node.staleSourceId ?? null,
    staleSourceQuestion: node.staleSourceQuestion ?? null,
    staleSince: isoOrNull(node.staleSince),
  };
}

/** A dependency row as events carry it. */
export function toDependencySnapshot(dependency: Source<Dependency>): DependencySnapshot {
  return {
    id: dependency.id,
    mapId: dependency.mapId,
    nodeId: dependency.nodeId,
    dependsOnId: dependency.dependsOnId,
    createdAt: iso(dependency.createdAt),
  };
}

/** A context item row as events carry it. */
export function toContextItemSnapshot(item: Source<ContextItem>): ContextItemSnapshot {
  return { id: item.id, nodeId: item.nodeId, title: item.title, content: item.content, createdAt: iso(item.createdAt) };
}

/** A message row as events carry it. */
export function toMessageSnapshot(message: Source<Message>): MessageSnapshot {
  return {
    id: message.id,
    conversationId: message.conversationId,
    parentId: message.parentId ?? null,
    role: message.role,
    kind: message.kind,
    content: message.content,
    metadata: jsonOf(message.metadata),
    deletedAt: isoOrNull(message.deletedAt),
    createdAt: iso(message.createdAt),
  };
}

/** A run row as events carry it (without its input and output, which no event shows). */
export function toRunSnapshot(run: Source<AgentRun>): RunSnapshot {
  return {
    id: run.id,
    mapId: run.mapId,
    nodeId: run.nodeId ?? null,
    agent: AGENT_GRAPH.parse(run.agent),
    status: run.status,
    error: run.error ?? null,
    errorCode: run.errorCode ?? null,
    raw: run.raw ?? null,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    tokensEstimated: run.tokensEstimated ?? false,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    finishedAt: isoOrNull(run.finishedAt),
    forkedFromRunId: run.forkedFromRunId ?? null,
    forkedFromStep: run.forkedFromStep ?? null,
  };
}

/** A question row as events carry it. */
export function toQuestionSnapshot(question: Source<AgentQuestion>): QuestionSnapshot {
  return {
    id: question.id,
    runId: question.runId,
    nodeId: question.nodeId ?? null,
    kind: QUESTION_KIND.parse(question.kind),
    question: question.question,
    context: jsonOf(question.context),
    status: question.status,
    expiresAt: iso(question.expiresAt),
  };
}
