import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { addContextItem } from './conversation-commands.ts';
import { ContextItemRef } from './dependency.type.ts';

builder.mutationField('addContextItem', (t) =>
  t.field({
    type: ContextItemRef,
    errors: { types: ACCESS_ERRORS },
    args: {
      nodeId: t.arg.id({ required: true }),
      content: t.arg.string({ required: true }),
      title: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      addContextItem(ctx.commands, { nodeId: String(args.nodeId), content: args.content, title: args.title ?? '' }),
  }),
);
