import { ForbiddenError, ValidationError } from '../commands/domain-errors.ts';
import { MapRef } from '../maps/map.type.ts';
import { createMap } from '../maps/map-commands.ts';
import { builder } from '../schema/builder.ts';
import { LanguageEnum, MapModeEnum } from '../schema/enums.type.ts';
import { understandProblem } from './start-runs.ts';

const CreateMapInput = builder.inputType('CreateMapInput', {
  fields: (t) => ({
    title: t.string({ description: 'Taken from the first line of the problem when omitted.' }),
    problem: t.string(),
    goal: t.string(),
    constraints: t.stringList(),
    language: t.field({ type: LanguageEnum, description: 'Detected from title and problem when omitted.' }),
    mode: t.field({ type: MapModeEnum }),
    understand: t.boolean({
      description: 'Start the problem-understanding agent on the problem (default: true when a problem is given).',
    }),
  }),
});

builder.mutationField('createMap', (t) =>
  t.field({
    type: MapRef,
    // A new map has no version, owner or busy node to conflict with: only its input, or a read-only token, is refused.
    errors: { types: [ValidationError, ForbiddenError] },
    args: { input: t.arg({ type: CreateMapInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { understand, ...fields } = input;
      const map = await createMap(ctx.commands, fields);
      if (map.problem && understand !== false) await understandProblem(ctx.runs, ctx.commands, map.id);
      return map;
    },
  }),
);
