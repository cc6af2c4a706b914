import { moveNode } from '../../commands/tree-commands.ts';
import { builder } from '../builder.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

const MoveNodeInput = builder.inputType('MoveNodeInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    parentId: t.id({ required: true }),
    position: t.int(),
  }),
});

builder.mutationField('moveNode', (t) =>
  t.prismaField({
    type: 'Node',
    errors: { types: CHANGE_ERRORS },
    args: { input: t.arg({ type: MoveNodeInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => moveNode(ctx.commands, input),
  }),
);
