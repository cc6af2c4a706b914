import { CycleError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { DependencyRef } from './dependency.type.ts';
import { addDependency } from './dependency-commands.ts';

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
