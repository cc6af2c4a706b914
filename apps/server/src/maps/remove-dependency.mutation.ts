import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { DependencyRef } from './dependency.type.ts';
import { removeDependency } from './dependency-commands.ts';

builder.mutationField('removeDependency', (t) =>
  t.field({
    type: DependencyRef,
    errors: { types: ACCESS_ERRORS },
    args: { nodeId: t.arg.id({ required: true }), dependsOnId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      removeDependency(ctx.commands, { nodeId: String(args.nodeId), dependsOnId: String(args.dependsOnId) }),
  }),
);
