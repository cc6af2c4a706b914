import type { Tx } from '@thinkingmap/db';
import type { ConversationArchive, NodeArchive } from '../commands/node-archive.ts';
import { parentsFirst } from './parents-first.ts';

/** A node's two conversations, one of each kind. */
const KINDS = ['DECOMPOSE', 'CONCLUDE'] as const;

const date = (iso: string) => new Date(iso);

/**
 * Gives recreated nodes back what their deletion removed: their two conversations with every message (same ids,
 * roles, kinds, content, metadata, thread links and dates; cleared ones stay cleared), their context items, their
 * decisions and their runs' links to them.
 * A node without an archive (deleted before deletions kept one) gets two empty conversations, as a new node does.
 * A few writes for all the nodes, whatever their number (one more per node whose runs are linked again).
 */
export async function restoreNodeContent(
  tx: Tx,
  mapId: string,
  nodes: readonly { nodeId: string; archive: NodeArchive | undefined }[],
): Promise<void> {
  const conversations = nodes.flatMap(({ nodeId, archive }) =>
    KINDS.map((kind) => ({ nodeId, kind, kept: archive?.conversations.find((c) => c.kind === kind) })),
  );
  if (conversations.length === 0) return;
  await tx.conversation.createMany({
    data: conversations.map(({ nodeId, kind, kept }) => ({
      nodeId,
      mapId,
      kind,
      ...(kept ? { id: kept.id, createdAt: date(kept.createdAt) } : {}),
    })),
  });
  const messages = conversations.flatMap(({ kept }) => (kept ? threadOf(kept) : []));
  if (messages.length)
    await tx.message.createMany({
      data: messages.map((m) => ({
        id: m.id,
        conversationId: m.conversationId,
        mapId,
        parentId: m.parentId,
        role: m.role,
        kind: m.kind,
        content: m.content,
        // A JSON column takes no plain null: a message without metadata leaves it unset.
        ...(m.metadata === null ? {} : { metadata: m.metadata }),
        deletedAt: m.deletedAt === null ? null : date(m.deletedAt),
        createdAt: date(m.createdAt),
      })),
    });
  const items = nodes.flatMap(({ archive }) => archive?.contextItems ?? []);
  if (items.length)
    await tx.contextItem.createMany({
      data: items.map((item) => ({ ...item, mapId, createdAt: date(item.createdAt) })),
    });
  await restoreRunLinks(tx, nodes);
}

/**
 * The runs that worked on recreated nodes point at them again (a run that has since gone with its map stays gone),
 * and the decisions about the nodes are back with them: the node panel's past runs and "why" read as before.
 */
async function restoreRunLinks(
  tx: Tx,
  nodes: readonly { nodeId: string; archive: NodeArchive | undefined }[],
): Promise<void> {
  for (const { nodeId, archive } of nodes) {
    if (archive?.runIds.length)
      await tx.agentRun.updateMany({ where: { id: { in: archive.runIds }, nodeId: null }, data: { nodeId } });
  }
  const decisions = nodes.flatMap(({ archive }) => archive?.decisions ?? []);
  if (decisions.length === 0) return;
  const runs = new Set(
    (await tx.agentRun.findMany({ where: { id: { in: decisions.map((d) => d.runId) } }, select: { id: true } })).map(
      (r) => r.id,
    ),
  );
  const kept = decisions.filter((d) => runs.has(d.runId));
  if (kept.length)
    await tx.decision.createMany({
      data: kept.map(({ overridden, choice, createdAt, ...decision }) => ({
        ...decision,
        choice,
        // A JSON column takes no plain null: a decision nobody overrode leaves it unset.
        ...(overridden === null ? {} : { overridden }),
        createdAt: date(createdAt),
      })),
    });
}

/** A conversation's messages, each after the one it answers (a link to a message not kept is dropped). */
function threadOf(conversation: ConversationArchive) {
  const ids = new Set(conversation.messages.map((m) => m.id));
  return parentsFirst(
    conversation.messages.map((m) => ({
      ...m,
      conversationId: conversation.id,
      parentId: m.parentId !== null && ids.has(m.parentId) ? m.parentId : null,
    })),
  );
}
