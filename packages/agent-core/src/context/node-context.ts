import type { ConversationKind, Language } from '../domain/enums.ts';
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

/** Counts and time range of a conversation, for the part of it the context leaves out. */
export interface ConversationSummary {
  kind: ConversationKind;
  total: number;
  included: number;
  firstAt: Date | null;
  lastAt: Date | null;
}

/**
 * Exactly what the design says an agent sees about a node, bounded by `CONTEXT_LIMITS`: the map's problem,
 * the node, its parent's question/goal/constraints, its dependency siblings' and children's
 * question/goal/conclusion, the last messages of one conversation with a summary, and the person's context.
 */
export interface NodeContext {
  language: Language;
  map: { id: string; problem: string; goal: string; constraints: string[] };
  node: { id: string; question: string; goal: string; constraints: string[]; depth: number };
  parent: { question: string; goal: string; constraints: string[] } | null;
  dependencies: RelatedNode[];
  children: RelatedNode[];
  messages: Pick<MessageRecord, 'id' | 'role' | 'kind' | 'content' | 'createdAt'>[];
  conversation: ConversationSummary;
  contextItems: { title: string; content: string }[];
  /** What the limits cut or dropped, in plain words, so the model knows the context is partial. */
  omissions: string[];
}
