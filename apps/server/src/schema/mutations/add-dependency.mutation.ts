import { addDependency } from '../../commands/dependency-commands.ts';
import { CycleError } from '../../errors/domain-errors.ts';
import { builder } from '../builder.ts';
import { DependencyRef } from '../types/dependency.type.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';

builder.mutationField('addDependency', (t) =>
  t.field({
    type: DependencyRef,
    description: '`nodeId` will wait for `dependsOnId`. Refuses self, other maps, ancestors and cycles.',
    errors: { types: [...ACCESS_ERRORS, CycleError] },
    args: { nodeId: t.arg.id({ required: true }), dependsOnId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      addDependency(ctx.commands, { nodeId: String(args.nodeId), dependsOnId: String(args.dependsOnId) }),
  }),
);
