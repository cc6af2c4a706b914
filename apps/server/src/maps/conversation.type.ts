import { threadOf } from '@thinkingmap/agent-core';
import { assertRowAccess, parseId } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { ConversationKindEnum, MessageKindEnum, MessageRoleEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { inOrder } from './in-order.ts';

builder.prismaObject('Conversation', {
  description: "One of a node's two conversations (decompose, conclude).",
  fields: (t) => ({
    id: t.exposeID('id'),
    nodeId: t.exposeID('nodeId'),
    kind: t.expose('kind', { type: ConversationKindEnum }),
    messages: t.relation('messages', {
      description: 'Messages that were not cleared, oldest first.',
      query: { where: { deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    }),
  }),
});

export const MessageRef = builder.prismaObject('Message', {
  fields: (t) => ({
    id: t.exposeID('id'),
    conversationId: t.exposeID('conversationId'),
    parentId: t.exposeID('parentId', { nullable: true }),
    role: t.expose('role', { type: MessageRoleEnum }),
    kind: t.expose('kind', { type: MessageKindEnum }),
    content: t.exposeString('content'),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    parent: t.relation('parent', { nullable: true }),
  }),
});

const ThreadRef = builder.objectRef<{ messageIds: string[] }>('MessageThread').implement({
  fields: (t) => ({
    messages: t.prismaField({
      type: ['Message'],
      description: 'From the start of the thread to the message asked for.',
      resolve: async (query, thread, _args, ctx) => {
        const rows = await ctx.db.read.message.findMany({ ...query, where: { id: { in: thread.messageIds } } });
        return inOrder(rows, thread.messageIds);
      },
    }),
  }),
});

builder.queryField('messageThread', (t) =>
  t.field({
    type: ThreadRef,
    description: 'Walks `parentId` back from a message to the start of its thread.',
    errors: { types: ACCESS_ERRORS },
    args: { messageId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = parseId('messageId', args.messageId);
      const message = await assertRowAccess(
        ctx,
        await ctx.db.read.message.findUnique({ where: { id } }),
        'Message',
        id,
      );
      const all = await ctx.db.read.message.findMany({
        where: { conversationId: message.conversationId },
        select: { id: true, parentId: true },
      });
      return { messageIds: threadOf(all, id).map((m) => m.id) };
    },
  }),
);
