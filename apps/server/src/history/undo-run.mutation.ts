import { builder } from '../schema/builder.ts';
import { CompensationRef, UNDO_ERRORS } from './history.type.ts';
import { undoRun } from './undo-commands.ts';

builder.mutationField('undoRun', (t) =>
  t.field({
    type: CompensationRef,
    description:
      'Takes back everything one run created or changed on its map; refused (UndoRefusedError naming the later ' +
      'change) where a later change depends on it.',
    errors: { types: UNDO_ERRORS },
    args: { runId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => undoRun(ctx.commands, { runId: String(args.runId) }),
  }),
);
