/** The minimal view of a message that thread walks need. */
export interface ThreadMessage {
  id: string;
  parentId: string | null;
}

/**
 * Walks a thread back from `messageId` through `parentId` links and returns it oldest first. Stops at a
 * missing parent (deleted or outside `messages`) and at a loop, so bad data cannot hang it. Works on any
 * message shape (agent records, database rows, the web's records).
 */
export function threadOf<T extends ThreadMessage>(messages: readonly T[], messageId: string): T[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const thread: T[] = [];
  const seen = new Set<string>();
  let current = byId.get(messageId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    thread.push(current);
    current = current.parentId ? byId.get(current.parentId) : undefined;
  }
  return thread.reverse();
}

/** The id to use as `parentId` for the next message: the last message of the conversation, or null. */
export function replyParentId(messages: readonly ThreadMessage[]): string | null {
  return messages.at(-1)?.id ?? null;
}
