import type { Database } from '@thinkingmap/db';

/**
 * A fingerprint of everything stored: every row of every table that a command can touch. Two equal
 * snapshots mean a refused command changed nothing.
 */
export async function snapshot(db: Database) {
  const p = db.read;
  const [maps, nodes, dependencies, contextItems, conversations, messages, events] = await Promise.all([
    p.map.findMany({ orderBy: { id: 'asc' } }),
    p.node.findMany({ orderBy: { id: 'asc' } }),
    p.dependency.findMany({ orderBy: { id: 'asc' } }),
    p.contextItem.findMany({ orderBy: { id: 'asc' } }),
    p.conversation.findMany({ orderBy: { id: 'asc' } }),
    p.message.findMany({ orderBy: { id: 'asc' } }),
    p.event.count(),
  ]);
  return JSON.stringify({ maps, nodes, dependencies, contextItems, conversations, messages, events });
}
