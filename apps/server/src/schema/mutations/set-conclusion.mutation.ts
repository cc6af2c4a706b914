import { setConclusion } from '../../commands/conclusion-commands.ts';
import { VersionConflictError } from '../../errors/domain-errors.ts';
import { builder } from '../builder.ts';
import { ConclusionKindEnum } from '../types/enums.type.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';
import { NodeRef } from '../types/node.type.ts';

const SetConclusionInput = builder.inputType('SetConclusionInput', {
  fields: (t) => ({
    nodeId: t.id({ required: true }),
    conclusion: t.string({ required: true }),
    kind: t.field({ type: ConclusionKindEnum }),
    expectedVersion: t.int(),
  }),
});

builder.mutationField('setConclusion', (t) =>
  t.field({
    type: NodeRef,
    description: 'Concludes a node (completes it) and releases the nodes that wait for it.',
    errors: { types: [...ACCESS_ERRORS, VersionConflictError] },
    args: { input: t.arg({ type: SetConclusionInput, required: true }) },
    resolve: (_root, { input }, ctx) => setConclusion(ctx.commands, input),
  }),
);
