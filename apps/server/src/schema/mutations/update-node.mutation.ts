import { updateNode } from '../../commands/node-commands.ts';
import { builder } from '../builder.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

const UpdateNodeInput = builder.inputType('UpdateNodeInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    expectedVersion: t.int({ required: true, description: 'The version the edit is based on.' }),
    question: t.string(),
    goal: t.string(),
    constraints: t.stringList(),
  }),
});

builder.mutationField('updateNode', (t) =>
  t.prismaField({
    type: 'Node',
    errors: { types: CHANGE_ERRORS },
    args: { input: t.arg({ type: UpdateNodeInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => updateNode(ctx.commands, input),
  }),
);
