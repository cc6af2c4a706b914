import { setConclusion } from '../../commands/conclusion-commands.ts';
import { builder } from '../builder.ts';
import { ConclusionKindEnum } from '../types/enums.type.ts';
import { CHANGE_ERRORS } from '../types/errors.type.ts';

const SetConclusionInput = builder.inputType('SetConclusionInput', {
  fields: (t) => ({
    nodeId: t.id({ required: true }),
    conclusion: t.string({ required: true }),
    kind: t.field({ type: ConclusionKindEnum }),
    expectedVersion: t.int(),
  }),
});

builder.mutationField('setConclusion', (t) =>
  t.prismaField({
    type: 'Node',
    description: 'Concludes a node (completes it) and releases the nodes that wait for it.',
    errors: { types: CHANGE_ERRORS },
    args: { input: t.arg({ type: SetConclusionInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => setConclusion(ctx.commands, input),
  }),
);
