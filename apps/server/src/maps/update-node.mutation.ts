import { VersionConflictError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { NodeRef } from './node.type.ts';
import { updateNode } from './node-commands.ts';

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
  t.field({
    type: NodeRef,
    errors: { types: [...ACCESS_ERRORS, VersionConflictError] },
    args: { input: t.arg({ type: UpdateNodeInput, required: true }) },
    resolve: (_root, { input }, ctx) => updateNode(ctx.commands, input),
  }),
);
