import { removeDependency } from '../../commands/dependency-commands.ts';
import { builder } from '../builder.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

builder.mutationField('removeDependency', (t) =>
  t.prismaField({
    type: 'Dependency',
    errors: { types: CHANGE_ERRORS },
    args: { nodeId: t.arg.id({ required: true }), dependsOnId: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) =>
      removeDependency(ctx.commands, { nodeId: String(args.nodeId), dependsOnId: String(args.dependsOnId) }),
  }),
);
