import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { deleteNode } from './tree-commands.ts';

const DeletedNodesRef = builder.objectRef<{ nodeIds: string[]; dependencyIds: string[] }>('DeletedNodes').implement({
  fields: (t) => ({
    nodeIds: t.exposeIDList('nodeIds', { description: 'The node and its whole subtree.' }),
    dependencyIds: t.exposeIDList('dependencyIds'),
  }),
});

builder.mutationField('deleteNode', (t) =>
  t.field({
    type: DeletedNodesRef,
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => deleteNode(ctx.commands, { id: String(args.id) }),
  }),
);
