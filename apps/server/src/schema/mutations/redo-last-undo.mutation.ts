import { redoLastUndo } from '../../history/undo-commands.ts';
import { builder } from '../builder.ts';
import { CompensationRef, UNDO_ERRORS } from '../types/history.type.ts';

builder.mutationField('redoLastUndo', (t) =>
  t.field({
    type: CompensationRef,
    description: "Redoes the person's last undo, unless they changed the map since.",
    errors: { types: UNDO_ERRORS },
    args: { mapId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => redoLastUndo(ctx.commands, { mapId: String(args.mapId) }),
  }),
);
