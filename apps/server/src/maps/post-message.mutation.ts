import { builder } from '../schema/builder.ts';
import { ConversationKindEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { MessageRef } from './conversation.type.ts';
import { postMessage } from './conversation-commands.ts';

const PostMessageInput = builder.inputType('PostMessageInput', {
  fields: (t) => ({
    nodeId: t.id({ required: true }),
    conversation: t.field({ type: ConversationKindEnum, required: true }),
    content: t.string({ required: true }),
    parentId: t.id({ description: 'The message this answers; the latest message of the conversation when omitted.' }),
  }),
});

builder.mutationField('postMessage', (t) =>
  t.field({
    type: MessageRef,
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: PostMessageInput, required: true }) },
    // People post as USER; agents post through the command layer with their own role.
    resolve: (_root, { input }, ctx) => postMessage(ctx.commands, { ...input, role: 'USER', kind: 'TEXT' }),
  }),
);
