import type { ConversationMessage } from '../api/results.ts';

/** A message with what the conversation view needs to show its place in a thread. */
export interface ThreadEntry {
  message: ConversationMessage;
  /** The message it answers, when that is not simply the message shown just before it. */
  repliesTo: ConversationMessage | null;
  /** How deep in its thread (0 for a message that starts one). */
  depth: number;
}

/**
 * Orders a conversation's messages by time and marks replies whose parent is not the message right
 * above them, so a branch in the thread stays readable in a flat list.
 */
export function threadView(messages: readonly ConversationMessage[]): ThreadEntry[] {
  const sorted = [...messages].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const byId = new Map(sorted.map((m) => [m.id, m]));
  const depth = new Map<string, number>();
  return sorted.map((message, index) => {
    const parent = message.parentId ? (byId.get(message.parentId) ?? null) : null;
    const level = parent ? (depth.get(parent.id) ?? 0) + 1 : 0;
    depth.set(message.id, level);
    const previous = index > 0 ? sorted[index - 1] : undefined;
    return { message, repliesTo: parent && parent.id !== previous?.id ? parent : null, depth: level };
  });
}
