import { moveNode } from '../../commands/tree-commands.ts';
import { builder } from '../builder.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';
import { NodeRef } from '../types/node.type.ts';

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
