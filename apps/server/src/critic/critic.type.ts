import { CriticCommand, type SuggestedChange, SuggestedChangeSchema } from '@thinkingmap/agent-core';
import { SuggestionKind, SuggestionStatus } from '@thinkingmap/db';
import { ConflictError, CycleError, VersionConflictError } from '../commands/domain-errors.ts';
import { assertMapAccess } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { acceptSuggestion, dismissSuggestion } from './suggestion-commands.ts';

export const SuggestionKindEnum = builder.enumType(SuggestionKind, {
  name: 'SuggestionKind',
  description: 'What a critic review found: a GAP, an OVERLAP, a CONTRADICTION, or an UNSUPPORTED claim.',
});
export const SuggestionStatusEnum = builder.enumType(SuggestionStatus, {
  name: 'SuggestionStatus',
  description: 'OPEN until the person accepts (its change is made) or dismisses it.',
});
const CriticCommandEnum = builder.enumType(CriticCommand, {
  name: 'CriticCommand',
  description:
    'The command a suggestion proposes: ADD_SUB_QUESTION (createNode under parentId), EDIT_QUESTION (updateNode), ' +
    'REDO_CONCLUSION (marks the conclusion out of date), ADD_DEPENDENCY (addDependency).',
});

const SuggestedChangeRef = builder.objectRef<SuggestedChange>('SuggestedChange').implement({
  description: 'The change a suggestion proposes, as one existing command with its arguments.',
  fields: (t) => ({
    command: t.field({ type: CriticCommandEnum, resolve: (c) => c.command }),
    nodeId: t.id({ nullable: true, resolve: (c) => ('nodeId' in c ? c.nodeId : null) }),
    parentId: t.id({ nullable: true, resolve: (c) => ('parentId' in c ? c.parentId : null) }),
    dependsOnId: t.id({ nullable: true, resolve: (c) => ('dependsOnId' in c ? c.dependsOnId : null) }),
    question: t.string({ nullable: true, resolve: (c) => ('question' in c ? c.question : null) }),
    goal: t.string({ nullable: true, resolve: (c) => ('goal' in c ? c.goal : null) }),
  }),
});

export const CriticSuggestionRef = builder.prismaObject('CriticSuggestion', {
  description:
    'A finding of a critic review with the change it proposes; accept it (the change is made through the normal ' +
    'command, in the map history) or dismiss it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    mapId: t.exposeID('mapId'),
    runId: t.exposeID('runId', { description: 'The critic run that found it (viewable like any run).' }),
    kind: t.expose('kind', { type: SuggestionKindEnum }),
    status: t.expose('status', { type: SuggestionStatusEnum }),
    nodeIds: t.idList({
      description: 'The nodes it concerns.',
      resolve: (s) => (Array.isArray(s.nodeIds) ? s.nodeIds.map(String) : []),
    }),
    explanation: t.exposeString('explanation'),
    change: t.field({ type: SuggestedChangeRef, resolve: (s) => SuggestedChangeSchema.parse(s.change) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('criticSuggestions', (t) =>
  t.prismaField({
    type: ['CriticSuggestion'],
    description: "A map's critic suggestions, newest first; `status` keeps one status (OPEN: what waits for you).",
    errors: { types: ACCESS_ERRORS },
    args: { mapId: t.arg.id({ required: true }), status: t.arg({ type: SuggestionStatusEnum }) },
    resolve: async (query, _root, args, ctx) => {
      const mapId = String(args.mapId);
      await assertMapAccess(ctx, mapId);
      return ctx.db.read.criticSuggestion.findMany({
        ...query,
        where: { mapId, ...(args.status ? { status: args.status } : {}) },
        orderBy: [{ createdAt: 'desc' }, { key: 'asc' }],
        take: 200,
      });
    },
  }),
);

builder.mutationField('acceptSuggestion', (t) =>
  t.prismaField({
    type: 'CriticSuggestion',
    description:
      'Makes the suggested change through its command (in the map history, undoable) and marks it ACCEPTED. ' +
      'ConflictError when a node it concerns changed since the review, or it was already accepted or dismissed.',
    errors: { types: [...ACCESS_ERRORS, ConflictError, VersionConflictError, CycleError] },
    args: { suggestionId: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => acceptSuggestion(ctx.commands, { suggestionId: String(args.suggestionId) }),
  }),
);

builder.mutationField('dismissSuggestion', (t) =>
  t.prismaField({
    type: 'CriticSuggestion',
    description: 'Dismisses an open suggestion; the map does not change.',
    errors: { types: [...ACCESS_ERRORS, ConflictError] },
    args: { suggestionId: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => dismissSuggestion(ctx.commands, { suggestionId: String(args.suggestionId) }),
  }),
);
