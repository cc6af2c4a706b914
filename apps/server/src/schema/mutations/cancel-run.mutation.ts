import { builder } from '../builder.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';
import { AgentRunRef } from '../types/run.type.ts';

builder.mutationField('cancelRun', (t) =>
  t.field({
    type: AgentRunRef,
    description: 'Cancels a running or waiting run. Its node becomes READY and can be processed again.',
    errors: { types: ACCESS_ERRORS },
    args: { runId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.runs.cancel(ctx.commands, String(args.runId)),
  }),
);
