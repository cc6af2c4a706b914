import type { ConversationKind, Language, MessageRole } from '../domain/enums.ts';
import type { MessageRecord, NodeRecord } from '../domain/records.ts';

/** A related node as context shows it. */
export interface RelatedNode {
  id: string;
  question: string;
  goal: string;
  /** Null while the node has no conclusion. */
  conclusion: string | null;
  status: NodeRecord['status'];
}

/**
 * Counts and time range of a conversation (design 000 §3.1: total, by role, first and last message), for
 * the part of it the context leaves out. Times are ISO strings, so a context survives a checkpoint as is.
 */
export interface ConversationSummary {
  kind: ConversationKind;
  total: number;
  included: number;
  /** Messages by who wrote them, over the whole conversation. */
  byRole: Record<MessageRole, number>;
  firstAt: string | null;
  lastAt: string | null;
}

/** A message as context shows it (its time as an ISO string). */
export type ContextMessage = Pick<MessageRecord, 'id' | 'role' | 'kind' | 'content'> & { createdAt: string };

/** One of the node's conversations: its last messages (oldest first) and the summary of the whole. */
export interface ConversationContext {
  summary: ConversationSummary;
  messages: ContextMessage[];
}

/**
 * Exactly what the design says an agent sees about a node, bounded by `CONTEXT_LIMITS`: the map's problem,
 * the node, its parent's question/goal/constraints, its dependency siblings' and children's
 * question/goal/conclusion, the last messages of the node's conversations with a summary of each, and the
 * person's context. Every agent reads both conversations, its own first (see `contextView`). Plain data (no
 * `Date`), kept in checkpoints.
 */
export interface NodeContext {
  language: Language;
  map: { id: string; problem: string; goal: string; constraints: string[] };
  node: { id: string; question: string; goal: string; constraints: string[]; depth: number };
  parent: { question: string; goal: string; constraints: string[] } | null;
  dependencies: RelatedNode[];
  children: RelatedNode[];
  /** The conversations collected, DECOMPOSE before CONCLUDE. */
  conversations: ConversationContext[];
  contextItems: { title: string; content: string }[];
  /** What the limits cut or dropped, in plain words, so the model knows the context is partial. */
  omissions: string[];
}
