import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { removeContextItem } from './conversation-commands.ts';
import { ContextItemRef } from './dependency.type.ts';

builder.mutationField('removeContextItem', (t) =>
  t.field({
    type: ContextItemRef,
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => removeContextItem(ctx.commands, { id: String(args.id) }),
  }),
);
