import { builder } from '../builder.ts';
import { ConclusionKindEnum, DecompositionStrategyEnum, NodeIntentEnum } from '../types/enums.type.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

builder.mutationField('processNode', (t) =>
  t.prismaField({
    type: 'AgentRun',
    description:
      'Starts the agents on a node: context → dependency check → intent → decompose | conclude | explore | clarify. ' +
      'Override any choice with intent, strategy or conclusionKind. Refused with ConflictError while the node has a run.',
    errors: { types: CHANGE_ERRORS },
    args: {
      nodeId: t.arg.id({ required: true }),
      intent: t.arg({ type: NodeIntentEnum }),
      strategy: t.arg({ type: DecompositionStrategyEnum }),
      conclusionKind: t.arg({ type: ConclusionKindEnum }),
    },
    resolve: (_query, _root, args, ctx) =>
      ctx.runs.processNode(ctx.commands, {
        nodeId: String(args.nodeId),
        intent: args.intent,
        strategy: args.strategy,
        conclusionKind: args.conclusionKind,
      }),
  }),
);
