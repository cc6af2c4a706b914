import { builder } from '../schema/builder.ts';
import { ConversationKindEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { clearConversation } from './conversation-commands.ts';

const ClearedRef = builder.objectRef<{ clearedCount: number }>('ClearedConversation').implement({
  fields: (t) => ({ clearedCount: t.exposeInt('clearedCount') }),
});

builder.mutationField('clearConversation', (t) =>
  t.field({
    type: ClearedRef,
    description: 'Hides the messages of a conversation; they are kept, marked deleted.',
    errors: { types: ACCESS_ERRORS },
    args: {
      nodeId: t.arg.id({ required: true }),
      conversation: t.arg({ type: ConversationKindEnum, required: true }),
    },
    resolve: (_root, args, ctx) =>
      clearConversation(ctx.commands, { nodeId: String(args.nodeId), conversation: args.conversation }),
  }),
);
