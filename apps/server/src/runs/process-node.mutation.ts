import { ConflictError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { ConclusionKindEnum, DecompositionStrategyEnum, NodeIntentEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { AgentRunRef } from './run.type.ts';
import { processNode } from './start-runs.ts';

builder.mutationField('processNode', (t) =>
  t.field({
    type: AgentRunRef,
    description:
      'Starts the agents on a node: context → dependency check → intent → decompose | conclude | explore | clarify. ' +
      'Override any choice with intent, strategy or conclusionKind. Refused with ConflictError while the node has a run.',
    errors: { types: [...ACCESS_ERRORS, ConflictError] },
    args: {
      nodeId: t.arg.id({ required: true }),
      intent: t.arg({ type: NodeIntentEnum }),
      strategy: t.arg({ type: DecompositionStrategyEnum }),
      conclusionKind: t.arg({ type: ConclusionKindEnum }),
    },
    resolve: (_root, args, ctx) =>
      processNode(ctx.runs, ctx.commands, {
        nodeId: String(args.nodeId),
        intent: args.intent,
        strategy: args.strategy,
        conclusionKind: args.conclusionKind,
      }),
  }),
);
