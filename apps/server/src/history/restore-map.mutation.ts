import { builder } from '../schema/builder.ts';
import { CompensationRef, UNDO_ERRORS } from './history.type.ts';
import { restoreMap } from './undo-commands.ts';

builder.mutationField('restoreMap', (t) =>
  t.field({
    type: CompensationRef,
    description: 'Restores the map as it was just after event `seq`, as a new version (compensating events).',
    errors: { types: UNDO_ERRORS },
    args: { mapId: t.arg.id({ required: true }), seq: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => restoreMap(ctx.commands, { mapId: String(args.mapId), seq: args.seq }),
  }),
);
