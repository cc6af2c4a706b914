import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { NodeRef } from './node.type.ts';
import { moveNode } from './tree-commands.ts';

const MoveNodeInput = builder.inputType('MoveNodeInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    parentId: t.id({ required: true }),
    position: t.int(),
  }),
});

builder.mutationField('moveNode', (t) =>
  t.field({
    type: NodeRef,
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: MoveNodeInput, required: true }) },
    resolve: (_root, { input }, ctx) => moveNode(ctx.commands, input),
  }),
);
