import { removeContextItem } from '../../commands/conversation-commands.ts';
import { builder } from '../builder.ts';
import { ContextItemRef } from '../types/dependency.type.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';

builder.mutationField('removeContextItem', (t) =>
  t.field({
    type: ContextItemRef,
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => removeContextItem(ctx.commands, { id: String(args.id) }),
  }),
);
