import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { NodeRef } from './node.type.ts';
import { type CreatedNode, createNodes } from './node-batch-commands.ts';

const BatchNodeInput = builder.inputType('BatchNodeInput', {
  fields: (t) => ({
    key: t.string({ required: true, description: "The client's key for the node, unique in the batch." }),
    parentKey: t.string({ description: 'The key of its parent in the same batch.' }),
    parentId: t.id({ description: 'The id of its parent already in the map. Neither parent: the root.' }),
    question: t.string({ required: true }),
    goal: t.string(),
    constraints: t.stringList(),
  }),
});

const CreateNodesInput = builder.inputType('CreateNodesInput', {
  fields: (t) => ({
    mapId: t.id({ required: true }),
    nodes: t.field({ type: [BatchNodeInput], required: true, description: 'From 1 to 2,000 nodes.' }),
  }),
});

const CreatedNodeRef = builder.objectRef<CreatedNode>('CreatedNode').implement({
  description: 'A node of a batch, with the key the client gave it.',
  fields: (t) => ({
    key: t.exposeString('key'),
    node: t.field({ type: NodeRef, resolve: (created) => created.node }),
  }),
});

const CreateNodesResult = builder.objectRef<{ nodes: CreatedNode[] }>('CreateNodesResult').implement({
  fields: (t) => ({ nodes: t.field({ type: [CreatedNodeRef], resolve: (result) => result.nodes }) }),
});

builder.mutationField('createNodes', (t) =>
  t.field({
    type: CreateNodesResult,
    description: 'Creates up to 2,000 nodes in one transaction and one change of the history; parents by key or by id.',
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: CreateNodesInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({ nodes: await createNodes(ctx.commands, input) }),
  }),
);
