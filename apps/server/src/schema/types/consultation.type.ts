import { ConsultationMessageRole, ConsultationRecordKind, ConsultationStrategy } from '@thinkingmap/db';
import type { NoteFile } from '../../consultations/file-notes.ts';
import { assertRowAccess, parseId } from '../access.ts';
import { builder } from '../builder.ts';
import { ACCESS_ERRORS } from './errors.type.ts';

export const ConsultationStrategyEnum = builder.enumType(ConsultationStrategy, {
  name: 'ConsultationStrategy',
  description: 'What a message sent while a turn runs does: INTERRUPT it, ENQUEUE after it, or REJECT the message.',
});
export const ConsultationRecordKindEnum = builder.enumType(ConsultationRecordKind, { name: 'ConsultationRecordKind' });
const ConsultationMessageRoleEnum = builder.enumType(ConsultationMessageRole, { name: 'ConsultationMessageRole' });

const ConsultationLogRef = builder.objectRef<{ at: string; text: string }>('ConsultationLog').implement({
  description: 'A line of progress the person sees.',
  fields: (t) => ({ at: t.field({ type: 'DateTime', resolve: (l) => l.at }), text: t.exposeString('text') }),
});

const ConsultationNoteRef = builder.objectRef<NoteFile & { mapId: string }>('ConsultationNote').implement({
  description: "A Markdown note of the map's consultations (a file under the map's notes folder).",
  fields: (t) => ({
    path: t.exposeString('path'),
    size: t.exposeInt('size'),
    updatedAt: t.field({ type: 'DateTime', resolve: (n) => n.updatedAt }),
    content: t.string({ resolve: (n, _args, ctx) => ctx.notes.read(n.mapId, n.path) }),
  }),
});

builder.prismaObject('ConsultationMessage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    role: t.expose('role', { type: ConsultationMessageRoleEnum }),
    text: t.exposeString('text'),
    planned: t.exposeBoolean('planned', { description: 'Whether the planner has handled it.' }),
    compressed: t.exposeBoolean('compressed', { description: 'Summarised: prompts show the summary instead.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ConsultationRecordRef = builder.prismaObject('ConsultationRecord', {
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.expose('kind', { type: ConsultationRecordKindEnum }),
    content: t.exposeString('content'),
    sourceMessageId: t.exposeID('sourceMessageId', { nullable: true }),
    version: t.exposeInt('version'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const ConsultationRef = builder.prismaObject('Consultation', {
  description: 'A conversation with a front agent that answers at once and a planner behind it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    mapId: t.exposeID('mapId'),
    strategy: t.expose('strategy', { type: ConsultationStrategyEnum }),
    plan: t.stringList({ resolve: (c) => c.plan as string[] }),
    currentStep: t.exposeInt('currentStep'),
    context: t.expose('context', { type: 'JSON', description: 'Short facts the planner keeps, by key.' }),
    summary: t.exposeString('summary', { description: 'What the compressed messages were summarised into.' }),
    busy: t.exposeBoolean('busy', { description: 'A turn is running.' }),
    logs: t.field({ type: [ConsultationLogRef], resolve: (c) => c.logs as { at: string; text: string }[] }),
    messages: t.relation('messages', { query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
    records: t.relation('records', { query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
    notes: t.field({
      type: [ConsultationNoteRef],
      description: "The map's notes.",
      resolve: async (c, _args, ctx) => (await ctx.notes.list(c.mapId)).map((n) => ({ ...n, mapId: c.mapId })),
    }),
  }),
});

builder.queryField('consultation', (t) =>
  t.prismaField({
    type: 'Consultation',
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = parseId('id', args.id);
      const row = await ctx.db.read.consultation.findUnique({ ...query, where: { id } });
      return assertRowAccess(ctx, row, 'Consultation', id);
    },
  }),
);

builder.queryField('consultations', (t) =>
  t.prismaField({
    type: ['Consultation'],
    description: "A map's consultations, newest first.",
    errors: { types: ACCESS_ERRORS },
    args: { mapId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const mapId = parseId('mapId', args.mapId);
      await assertRowAccess(ctx, { mapId }, 'Map', mapId);
      return ctx.db.read.consultation.findMany({ ...query, where: { mapId }, orderBy: { createdAt: 'desc' } });
    },
  }),
);

const NoteContentRef = builder.objectRef<{ path: string; content: string }>('ConsultationNoteContent').implement({
  fields: (t) => ({ path: t.exposeString('path'), content: t.exposeString('content') }),
});

builder.queryField('consultationNote', (t) =>
  t.field({
    type: NoteContentRef,
    description: "One note's Markdown, by its path in the map's notes folder.",
    errors: { types: ACCESS_ERRORS },
    args: { consultationId: t.arg.id({ required: true }), path: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = parseId('consultationId', args.consultationId);
      const row = await ctx.db.read.consultation.findUnique({ where: { id } });
      const found = await assertRowAccess(ctx, row, 'Consultation', id);
      return { path: args.path, content: await ctx.notes.read(found.mapId, args.path) };
    },
  }),
);
