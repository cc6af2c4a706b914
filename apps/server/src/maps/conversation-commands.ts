import {
  ContextAction,
  type ContextItem,
  ConversationKind,
  jsonColumn,
  type Message,
  MessageKind,
  MessageRole,
  type RunLog,
  type Tx,
} from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { NotFoundError } from '../commands/domain-errors.ts';
import { toContextItemSnapshot, toMessageSnapshot } from '../commands/event-snapshots.ts';
import { id, LIMITS, optionalText, parseInput, text } from '../commands/input.ts';
import { type Emit, mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { loadNodeInMap } from './node-commands.ts';

const conversationKind = z.enum(ConversationKind);

export const postMessageInput = z.object({
  nodeId: id,
  conversation: conversationKind,
  content: text(LIMITS.content),
  parentId: id.nullish(),
  role: z.enum(MessageRole).default(MessageRole.USER),
  kind: z.enum(MessageKind).default(MessageKind.TEXT),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * Posts a message to one of a node's two conversations. Without `parentId` the message answers the latest
 * message of that conversation, so every conversation is a thread that can be walked back.
 */
export async function postMessage(ctx: CommandContext, raw: unknown): Promise<Message> {
  const input = parseInput(postMessageInput, raw);
  const mapId = await mapIdOfNode(ctx, input.nodeId);
  return mutateMap(ctx, mapId, (tx, emit) => postMessageIn(ctx.db.runLog, tx, emit, mapId, input));
}

/** A checked message to post (see {@link postMessage}). */
export type PostMessageInput = z.infer<typeof postMessageInput>;

/** Posts a checked message inside a command's transaction on the node's map (see {@link postMessage}). */
export async function postMessageIn(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  mapId: string,
  input: PostMessageInput,
): Promise<Message> {
  // The conversation with its node's map and latest message, in one read: a node of another map is not found.
  const conversation = await log.conversation(tx, input.nodeId, input.conversation);
  if (conversation?.mapId !== mapId) throw new NotFoundError('Node', input.nodeId);
  let parentId = input.parentId ?? null;
  if (parentId) {
    // A message of another conversation answers as an unknown one (it may be of another map, or person).
    const parent = await tx.message.findUnique({ where: { id: parentId } });
    if (!parent || parent.conversationId !== conversation.id) throw new NotFoundError('Message', parentId);
  } else {
    parentId = conversation.latestMessageId;
  }
  const message = await tx.message.create({
    data: {
      conversationId: conversation.id,
      mapId,
      parentId,
      role: input.role,
      kind: input.kind,
      content: input.content,
      ...(input.metadata ? { metadata: jsonColumn(input.metadata) } : {}),
    },
  });
  emit({ type: 'MessagePosted', payload: { message: toMessageSnapshot(message), nodeId: input.nodeId } });
  return message;
}

/**
 * Clears a conversation. Messages are soft-deleted (kept with `deletedAt`), never destroyed: nothing a
 * person wrote is lost.
 */
export async function clearConversation(ctx: CommandContext, raw: unknown): Promise<{ clearedCount: number }> {
  const input = parseInput(z.object({ nodeId: id, conversation: conversationKind }), raw);
  const mapId = await mapIdOfNode(ctx, input.nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    await loadNodeInMap(tx, input.nodeId, mapId);
    const conversation = await tx.conversation.findUniqueOrThrow({
      where: { nodeId_kind: { nodeId: input.nodeId, kind: input.conversation } },
    });
    const { count } = await tx.message.updateMany({
      where: { conversationId: conversation.id, deletedAt: null },
      data: { deletedAt: new Date() },
    });
    emit({
      type: 'ConversationCleared',
      payload: { nodeId: input.nodeId, conversationId: conversation.id, kind: input.conversation, clearedCount: count },
    });
    return { clearedCount: count };
  });
}

export const addContextItemInput = z.object({
  nodeId: id,
  content: text(LIMITS.content),
  title: optionalText(LIMITS.contextTitle).default(''),
});

/** Adds context the person wants agents to consider on this node. */
export async function addContextItem(ctx: CommandContext, raw: unknown): Promise<ContextItem> {
  const input = parseInput(addContextItemInput, raw);
  const mapId = await mapIdOfNode(ctx, input.nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    await loadNodeInMap(tx, input.nodeId, mapId);
    const item = await tx.contextItem.create({ data: { ...input, mapId } });
    emit({
      type: 'ContextUpdated',
      payload: { nodeId: input.nodeId, action: ContextAction.ADDED, item: toContextItemSnapshot(item) },
    });
    return item;
  });
}

/** Removes a context item. */
export async function removeContextItem(ctx: CommandContext, raw: unknown): Promise<ContextItem> {
  const { id: itemId } = parseInput(z.object({ id }), raw);
  const found = await ctx.db.read.contextItem.findUnique({ where: { id: itemId } });
  if (!found) throw new NotFoundError('ContextItem', itemId);
  return mutateMap(ctx, found.mapId, async (tx, emit) => {
    const item = await tx.contextItem.findUnique({ where: { id: itemId } });
    if (!item) throw new NotFoundError('ContextItem', itemId);
    await tx.contextItem.delete({ where: { id: itemId } });
    emit({
      type: 'ContextUpdated',
      payload: { nodeId: item.nodeId, action: ContextAction.REMOVED, item: toContextItemSnapshot(item) },
    });
    return item;
  });
}
