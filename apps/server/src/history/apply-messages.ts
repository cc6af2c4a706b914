import type { Tx } from '@thinkingmap/db';
import { type MessageSnapshot, toMessageSnapshot } from '../commands/event-snapshots.ts';
import type { Emit } from '../commands/mutate-map.ts';
import type { NodeArchive } from '../commands/node-archive.ts';
import type { Entity, MapState } from './map-state.ts';

/** Messages by the conversation that holds them, with its node: one MessagesChanged event each. */
function byConversation(messages: readonly (MessageSnapshot & { nodeId: string })[]) {
  const groups = new Map<string, { nodeId: string; messages: MessageSnapshot[] }>();
  for (const { nodeId, ...message } of messages) {
    const group = groups.get(message.conversationId) ?? { nodeId, messages: [] };
    group.messages.push(message);
    groups.set(message.conversationId, group);
  }
  return groups;
}

/** Emits the messages as they now are (hidden or shown), one event per conversation. */
export function emitMessages(emit: Emit, messages: readonly (MessageSnapshot & { nodeId: string })[]): void {
  for (const [conversationId, group] of byConversation(messages))
    emit({ type: 'MessagesChanged', payload: { nodeId: group.nodeId, conversationId, messages: group.messages } });
}

/**
 * Hides the messages the target takes away and shows again those it brings back, on nodes that stay: a message is
 * never deleted, only marked as a cleared one is (`deletedAt`). Messages of removed nodes go with them; those of
 * recreated nodes come back from their archive (`restored`).
 */
export async function hideAndShowMessages(
  tx: Tx,
  emit: Emit,
  current: MapState,
  target: ReadonlyMap<string, Entity | null>,
  skip: { removedNodes: ReadonlySet<string>; restored: ReadonlySet<string> },
): Promise<void> {
  const hide: string[] = [];
  const show: string[] = [];
  for (const [key, entity] of target) {
    const was = current.get(key);
    if (entity === null && was?.kind === 'MESSAGE' && !skip.removedNodes.has(was.value.nodeId)) hide.push(was.id);
    if (entity?.kind === 'MESSAGE' && !was && !skip.restored.has(entity.id)) show.push(entity.id);
  }
  const changed: (MessageSnapshot & { nodeId: string })[] = [];
  for (const [ids, deletedAt] of [
    [hide, new Date()],
    [show, null],
  ] as const) {
    if (ids.length === 0) continue;
    await tx.message.updateMany({ where: { id: { in: ids } }, data: { deletedAt } });
    const rows = await tx.message.findMany({
      where: { id: { in: ids } },
      include: { conversation: { select: { nodeId: true } } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    changed.push(...rows.map((row) => ({ ...toMessageSnapshot(row), nodeId: row.conversation.nodeId })));
  }
  emitMessages(emit, changed);
}

/**
 * A recreated node's archive as the target wants it: its messages the target takes away come back hidden (kept,
 * as cleared ones are), and only the context items the target keeps come back.
 */
export function archiveAsWanted(
  archive: NodeArchive,
  target: ReadonlyMap<string, Entity | null>,
  at: string,
): NodeArchive {
  const away = (kind: string, id: string) => target.get(`${kind}:${id}`) === null;
  return {
    ...archive,
    conversations: archive.conversations.map((c) => ({
      ...c,
      messages: c.messages.map((m) => (m.deletedAt === null && away('MESSAGE', m.id) ? { ...m, deletedAt: at } : m)),
    })),
    contextItems: archive.contextItems.filter((item) => !away('CONTEXT_ITEM', item.id)),
  };
}
