import { addDependency } from '../../commands/dependency-commands.ts';
import { CycleError } from '../../errors/domain-errors.ts';
import { builder } from '../builder.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

builder.mutationField('addDependency', (t) =>
  t.prismaField({
    type: 'Dependency',
    description: '`nodeId` will wait for `dependsOnId`. Refuses self, other maps, ancestors and cycles.',
    errors: { types: [...CHANGE_ERRORS, CycleError] },
    args: { nodeId: t.arg.id({ required: true }), dependsOnId: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) =>
      addDependency(ctx.commands, { nodeId: String(args.nodeId), dependsOnId: String(args.dependsOnId) }),
  }),
);
