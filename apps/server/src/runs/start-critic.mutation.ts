import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { AgentRunRef } from './run.type.ts';
import { startCritic } from './start-runs.ts';

const StartCriticInput = builder.inputType('StartCriticInput', {
  fields: (t) => ({
    mapId: t.id({ required: true, description: 'The map to review.' }),
    nodeId: t.id({ description: 'Review only the subtree under this node (default: the whole map).' }),
  }),
});

builder.mutationField('startCritic', (t) =>
  t.field({
    type: AgentRunRef,
    description:
      'Starts a critic review of a map or a subtree: it looks for gaps, overlapping sub-questions, contradicting ' +
      'conclusions and unsupported claims, and posts each as a suggestion (criticSuggestions, SuggestionPosted). ' +
      'It changes nothing itself.',
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: StartCriticInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      startCritic(ctx.runs, ctx.commands, {
        mapId: String(input.mapId),
        nodeId: input.nodeId ? String(input.nodeId) : null,
      }),
  }),
);
