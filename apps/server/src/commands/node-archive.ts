import type { ContextItem, Conversation, Decision, Message } from '@thinkingmap/db';
import { z } from 'zod';
import { decisionSnapshot, toDecisionSnapshot } from './decision-snapshot.ts';
import {
  contextItemSnapshot,
  conversationKind,
  isoDate,
  messageSnapshot,
  toContextItemSnapshot,
  toMessageSnapshot,
} from './event-snapshots.ts';

/** One of a deleted node's conversations with all its messages (cleared ones too), oldest first. */
export const conversationArchive = z.object({
  id: z.string(),
  kind: conversationKind,
  createdAt: isoDate,
  messages: z.array(messageSnapshot),
});

/** A decision about a deleted node, with the key that keeps its run from recording it twice. */
export const decisionArchive = decisionSnapshot.extend({ key: z.string() });

/**
 * What deleting a node removed besides the fields the history tracks: its two conversations with their messages,
 * its context items, the decisions runs (and the person at their gates) made about it, and which runs worked on it,
 * kept in the NodeDeleted event so that an undo or restore that recreates the node brings them back as they were
 * (same ids, thread links and dates). Only the history reads it; listeners never get it. Archives written before
 * decisions and runs were kept read as having none.
 */
export const nodeArchive = z.object({
  nodeId: z.string(),
  conversations: z.array(conversationArchive),
  contextItems: z.array(contextItemSnapshot),
  decisions: z.array(decisionArchive).default([]),
  runIds: z.array(z.string()).default([]),
});

export type ConversationArchive = z.infer<typeof conversationArchive>;
export type NodeArchive = z.infer<typeof nodeArchive>;
export type DecisionArchive = z.infer<typeof decisionArchive>;

/** A node's rows as its archive carries them. */
export function toNodeArchive(
  nodeId: string,
  rows: {
    conversations: (Conversation & { messages: Message[] })[];
    contextItems: ContextItem[];
    decisions: Decision[];
    runIds: string[];
  },
): NodeArchive {
  return {
    nodeId,
    conversations: rows.conversations.map((c) => ({
      id: c.id,
      kind: c.kind,
      createdAt: c.createdAt.toISOString(),
      messages: c.messages.map(toMessageSnapshot),
    })),
    contextItems: rows.contextItems.map(toContextItemSnapshot),
    decisions: rows.decisions.map((d) => ({ ...toDecisionSnapshot(d), key: d.key })),
    runIds: rows.runIds,
  };
}
