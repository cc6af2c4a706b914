import { builder } from '../schema/builder.ts';
import { CompensationRef, UNDO_ERRORS } from './history.type.ts';
import { undoLastChange } from './undo-commands.ts';

builder.mutationField('undoLastChange', (t) =>
  t.field({
    type: CompensationRef,
    description: "Takes back the person's last change on the map with new compensating events (the log is kept).",
    errors: { types: UNDO_ERRORS },
    args: { mapId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => undoLastChange(ctx.commands, { mapId: String(args.mapId) }),
  }),
);
