import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { NodeRef } from './node.type.ts';
import { createNode } from './node-commands.ts';

const CreateNodeInput = builder.inputType('CreateNodeInput', {
  fields: (t) => ({
    mapId: t.id({ required: true }),
    parentId: t.id({ description: 'Omit to create the root (a map has one).' }),
    question: t.string({ required: true }),
    goal: t.string(),
    constraints: t.stringList(),
    position: t.int({ description: 'Place among siblings; appended when omitted.' }),
  }),
});

builder.mutationField('createNode', (t) =>
  t.field({
    type: NodeRef,
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: CreateNodeInput, required: true }) },
    resolve: (_root, { input }, ctx) => createNode(ctx.commands, input),
  }),
);
