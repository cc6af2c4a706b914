import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { deleteMap } from './map-commands.ts';

const DeletedMapRef = builder.objectRef<{ id: string }>('DeletedMap').implement({
  fields: (t) => ({ id: t.exposeID('id') }),
});

builder.mutationField('deleteMap', (t) =>
  t.field({
    type: DeletedMapRef,
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => deleteMap(ctx.commands, { id: String(args.id) }),
  }),
);
