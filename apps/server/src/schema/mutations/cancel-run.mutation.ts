import { builder } from '../builder.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

builder.mutationField('cancelRun', (t) =>
  t.prismaField({
    type: 'AgentRun',
    description: 'Cancels a running or waiting run. Its node becomes READY and can be processed again.',
    errors: { types: CHANGE_ERRORS },
    args: { runId: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => ctx.runs.cancel(ctx.commands, String(args.runId)),
  }),
);
