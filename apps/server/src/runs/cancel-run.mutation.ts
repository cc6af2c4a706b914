import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { cancelRun } from './cancel-run.ts';
import { AgentRunRef } from './run.type.ts';

builder.mutationField('cancelRun', (t) =>
  t.field({
    type: AgentRunRef,
    description: 'Cancels a running or waiting run. Its node becomes READY and can be processed again.',
    errors: { types: ACCESS_ERRORS },
    args: { runId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => cancelRun(ctx.runs, ctx.commands, String(args.runId)),
  }),
);
