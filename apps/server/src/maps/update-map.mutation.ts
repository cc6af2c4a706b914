import { VersionConflictError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { LanguageEnum, MapModeEnum, MapStatusEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { MapRef } from './map.type.ts';
import { updateMap } from './map-commands.ts';

const UpdateMapInput = builder.inputType('UpdateMapInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    expectedVersion: t.int({ description: 'When given, a stale edit is refused with VersionConflictError.' }),
    title: t.string(),
    problem: t.string(),
    goal: t.string(),
    constraints: t.stringList(),
    language: t.field({ type: LanguageEnum }),
    mode: t.field({ type: MapModeEnum }),
    status: t.field({ type: MapStatusEnum }),
    autoRun: t.boolean({ description: 'Whether agents may start runs by themselves on this map.' }),
    tokenBudget: t.int({
      description:
        'Model tokens the agents may spend on this map (spent ones count); an explicit null lifts the limit.',
    }),
  }),
});

builder.mutationField('updateMap', (t) =>
  t.field({
    type: MapRef,
    errors: { types: [...ACCESS_ERRORS, VersionConflictError] },
    args: { input: t.arg({ type: UpdateMapInput, required: true }) },
    resolve: (_root, { input }, ctx) => updateMap(ctx.commands, input),
  }),
);
