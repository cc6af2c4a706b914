import { VersionConflictError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { ConclusionKindEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { setConclusion } from './conclusion-commands.ts';
import { NodeRef } from './node.type.ts';

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
