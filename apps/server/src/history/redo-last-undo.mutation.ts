import { builder } from '../schema/builder.ts';
import { CompensationRef, UNDO_ERRORS } from './history.type.ts';
import { redoLastUndo } from './undo-commands.ts';

builder.mutationField('redoLastUndo', (t) =>
  t.field({
    type: CompensationRef,
    description: "Redoes the person's last undo, unless they changed the map since.",
    errors: { types: UNDO_ERRORS },
    args: { mapId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => redoLastUndo(ctx.commands, { mapId: String(args.mapId) }),
  }),
);
