import {
  AgentGraph,
  ConsultationMessageRole,
  ConsultationRecordKind,
  ConsultationStage,
  ConsultationStrategy,
} from '@thinkingmap/db';
import { NotFoundError } from '../commands/domain-errors.ts';
import { ANSWERABLE_QUESTION } from '../runs/answerable-questions.ts';
import { assertMapAccess, parseId } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { assertConsultationAccess } from './consultation-access.ts';
import { consultationLogs, consultationPlan } from './consultation-columns.ts';
import type { NoteFile } from './file-notes.ts';
import { noteDownloadPath } from './note-download.ts';

export const ConsultationStrategyEnum = builder.enumType(ConsultationStrategy, {
  name: 'ConsultationStrategy',
  description: 'What a message sent while a turn runs does: INTERRUPT it, ENQUEUE after it, or REJECT the message.',
});
export const ConsultationRecordKindEnum = builder.enumType(ConsultationRecordKind, { name: 'ConsultationRecordKind' });
export const ConsultationStageEnum = builder.enumType(ConsultationStage, {
  name: 'ConsultationStage',
  description:
    'NEEDS_PROBLEM: started without a map, its first message is the problem; UNDERSTANDING: its map waits for the ' +
    'person to confirm the understanding (`understandingQuestion`, answered with replyToAgent); CONSULTING.',
});
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
    downloadUrl: t.string({
      description:
        'Where to download the file (same-origin path; send the API token as `Authorization: Bearer`): ' +
        '`/notes/<mapId>/<path>`, answered as an attachment.',
      resolve: (n) => noteDownloadPath(n.mapId, n.path),
    }),
  }),
});

/** A map's notes, by path. */
const notesOfMap = async (ctx: { notes: { list(mapId: string): Promise<NoteFile[]> } }, mapId: string) =>
  (await ctx.notes.list(mapId)).map((n) => ({ ...n, mapId }));

builder.prismaObjectField('Map', 'notes', (t) =>
  t.field({
    type: [ConsultationNoteRef],
    description: "The Markdown notes its consultations wrote, by path (what the map's exports carry).",
    resolve: (map, _args, ctx) => notesOfMap(ctx, map.id),
  }),
);

builder.prismaObject('ConsultationMessage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    role: t.expose('role', { type: ConsultationMessageRoleEnum }),
    text: t.exposeString('text'),
    planned: t.exposeBoolean('planned', { description: 'Whether the planner has handled it.' }),
    compressed: t.exposeBoolean('compressed', { description: 'Summarised: prompts show the summary instead.' }),
    answersId: t.exposeID('answersId', {
      nullable: true,
      description:
        "A reply's: the person's message it answers (a message sent while the reply was written is stored before it).",
    }),
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
    mapId: t.exposeID('mapId', {
      nullable: true,
      description: 'Null until the first message of a consultation started without a map creates its map.',
    }),
    map: t.relation('map', { nullable: true }),
    stage: t.expose('stage', { type: ConsultationStageEnum }),
    strategy: t.expose('strategy', { type: ConsultationStrategyEnum }),
    understandingRun: t.prismaField({
      type: 'AgentRun',
      nullable: true,
      description: 'The problem-understanding run of the map it created (started without a map).',
      resolve: (query, c, _args, ctx) =>
        ctx.db.read.agentRun.findFirst({
          ...query,
          where: { consultationId: c.id, agent: AgentGraph.UNDERSTAND_PROBLEM },
          orderBy: { createdAt: 'desc' },
        }),
    }),
    understandingQuestion: t.prismaField({
      type: 'AgentQuestion',
      nullable: true,
      description:
        'While UNDERSTANDING: the confirmation the person answers with replyToAgent(requestId) (accept, or a ' +
        'correction); messages sent meanwhile wait and are answered once it is confirmed.',
      resolve: (query, c, _args, ctx) =>
        ctx.db.read.agentQuestion.findFirst({
          ...query,
          where: { run: { consultationId: c.id, agent: AgentGraph.UNDERSTAND_PROBLEM }, ...ANSWERABLE_QUESTION },
          orderBy: { createdAt: 'desc' },
        }),
    }),
    proposals: t.prismaField({
      type: ['AgentRun'],
      description:
        "Sub-question proposals its planner made for the map's nodes, oldest first: each is a run waiting at the " +
        'decomposition review (reviewDecomposition on its question); nodes exist only once the person approves.',
      resolve: (query, c, _args, ctx) =>
        ctx.db.read.agentRun.findMany({
          ...query,
          where: { consultationId: c.id, agent: AgentGraph.PROCESS_NODE },
          orderBy: { createdAt: 'asc' },
        }),
    }),
    plan: t.stringList({ resolve: (c) => consultationPlan.parse(c.plan) }),
    currentStep: t.exposeInt('currentStep'),
    context: t.expose('context', { type: 'JSON', description: 'Short facts the planner keeps, by key.' }),
    summary: t.exposeString('summary', { description: 'What the compressed messages were summarised into.' }),
    busy: t.exposeBoolean('busy', { description: 'A turn is running.' }),
    failureCode: t.exposeString('failureCode', {
      nullable: true,
      description:
        'How the last turn failed (MODEL_UNAVAILABLE, MODEL_TIMEOUT, MODEL_UNPARSEABLE, …); null when it did not. ' +
        'The message it answered stays unplanned and is answered by the next turn.',
    }),
    failureReason: t.exposeString('failureReason', { nullable: true, description: 'What happened, in words.' }),
    logs: t.field({ type: [ConsultationLogRef], resolve: (c) => consultationLogs.parse(c.logs) }),
    messages: t.relation('messages', { query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
    records: t.relation('records', { query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
    notes: t.field({
      type: [ConsultationNoteRef],
      description: "The map's notes (none before it has a map).",
      resolve: (c, _args, ctx) => (c.mapId ? notesOfMap(ctx, c.mapId) : []),
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
      return assertConsultationAccess(ctx, row, id);
    },
  }),
);

builder.queryField('consultations', (t) =>
  t.prismaField({
    type: ['Consultation'],
    description: "A map's consultations, newest first; without `mapId`, every consultation of the viewer.",
    errors: { types: ACCESS_ERRORS },
    args: { mapId: t.arg.id() },
    resolve: async (query, _root, args, ctx) => {
      if (args.mapId == null)
        return ctx.db.read.consultation.findMany({
          ...query,
          where: { ownerId: ctx.viewer.id },
          orderBy: { createdAt: 'desc' },
        });
      const mapId = parseId('mapId', args.mapId);
      await assertMapAccess(ctx, mapId);
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
      const found = await assertConsultationAccess(ctx, row, id);
      if (!found.mapId) throw new NotFoundError('Note', args.path);
      return { path: args.path, content: await ctx.notes.read(found.mapId, args.path) };
    },
  }),
);
