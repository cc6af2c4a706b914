import { removeDependency } from '../../commands/dependency-commands.ts';
import { builder } from '../builder.ts';
import { DependencyRef } from '../types/dependency.type.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';

builder.mutationField('removeDependency', (t) =>
  t.field({
    type: DependencyRef,
    errors: { types: ACCESS_ERRORS },
    args: { nodeId: t.arg.id({ required: true }), dependsOnId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      removeDependency(ctx.commands, { nodeId: String(args.nodeId), dependsOnId: String(args.dependsOnId) }),
  }),
);
