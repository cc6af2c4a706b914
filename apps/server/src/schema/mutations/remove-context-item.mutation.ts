import { removeContextItem } from '../../commands/conversation-commands.ts';
import { builder } from '../builder.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

builder.mutationField('removeContextItem', (t) =>
  t.prismaField({
    type: 'ContextItem',
    errors: { types: CHANGE_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => removeContextItem(ctx.commands, { id: String(args.id) }),
  }),
);
