import { ChangeKind } from '@thinkingmap/db';
import { assertMapAccess } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS, ErrorInterface } from '../schema/errors.type.ts';
import { readHistoryEvents } from './history-events.ts';
import { buildChanges, type ChangeEntry, type FieldDiff, type MapChange } from './map-changes.ts';
import { nextUndo, personStacks } from './revert-plan.ts';
import { revertedBy } from './reverted-by.ts';
import type { CompensationResult } from './undo-commands.ts';
import { UndoRefusedError } from './undo-refused-error.ts';

export const ChangeKindEnum = builder.enumType(ChangeKind, { name: 'ChangeKind' });

builder.objectType(UndoRefusedError, {
  name: 'UndoRefusedError',
  description:
    'An undo, redo or restore was refused and nothing changed. `reason`: NOTHING_TO_UNDO, NOTHING_TO_REDO, ' +
    'ALREADY_UNDONE (undoRun of a run whose undo stands), NOT_REVERSIBLE, or LATER_CHANGE (`laterSeq` is the later change that depends on it, `entityId` what it touched).',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    reason: t.exposeString('reason'),
    laterSeq: t.exposeInt('laterSeq', { nullable: true }),
    entityId: t.exposeID('entityId', { nullable: true }),
  }),
});

const FieldDiffRef = builder.objectRef<FieldDiff>('FieldChange').implement({
  description: 'One field a change set, before and after.',
  fields: (t) => ({
    field: t.exposeString('field'),
    before: t.expose('before', { type: 'JSON', nullable: true }),
    after: t.expose('after', { type: 'JSON', nullable: true }),
  }),
});

const ChangeEntryRef = builder.objectRef<ChangeEntry>('ChangeEntry').implement({
  description: 'What one change did to one entity of the map.',
  fields: (t) => ({
    entity: t.exposeString('kind', { description: 'MAP, NODE, DEPENDENCY, CONTEXT_ITEM, MESSAGE or SUGGESTION.' }),
    id: t.exposeID('id'),
    action: t.exposeString('action', { description: 'CREATED, UPDATED or DELETED.' }),
    label: t.string({
      description:
        "A node's question, the map's title, a context item's title (its text when untitled) or a message's text, " +
        'as it was after the change (before, for a deletion or a message hidden).',
      nullable: true,
      resolve: (entry) => {
        const entity = entry.after ?? entry.before;
        if (entity?.kind === 'NODE') return entity.value.question;
        if (entity?.kind === 'CONTEXT_ITEM') return entity.value.title || entity.value.content;
        if (entity?.kind === 'MESSAGE') return entity.value.content;
        if (entity?.kind === 'SUGGESTION') return entity.value.explanation;
        return entity?.kind === 'MAP' ? entity.value.title : null;
      },
    }),
    fields: t.field({ type: [FieldDiffRef], resolve: (entry) => entry.fields }),
  }),
});

const MapChangeRef = builder.objectRef<MapChange & { revertedBy: number | null }>('MapChange').implement({
  description:
    "One change of a map's history: one command's events, who made it, and what it changed. An undo of a whole " +
    "run names the run's first change as `revertsSeq`, and each of the run's changes has it as `revertedBy`.",
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Its first event; restoreMap(seq: lastSeq) returns the map to after it.' }),
    lastSeq: t.exposeInt('lastSeq'),
    at: t.expose('at', { type: 'DateTime' }),
    kind: t.expose('kind', { type: ChangeKindEnum }),
    actorId: t.exposeID('actorId', { nullable: true, description: 'The person (agents act as the map owner).' }),
    runId: t.exposeID('runId', { nullable: true, description: 'The run that made it; null when the person did.' }),
    step: t.exposeString('step', { nullable: true, description: "The run's step that made it." }),
    revertsSeq: t.exposeInt('revertsSeq', { nullable: true, description: 'The change an undo or redo takes back.' }),
    revertedBy: t.exposeInt('revertedBy', {
      nullable: true,
      description:
        'The later undo or redo that took it back, while that stands (null again once it is redone or undone).',
    }),
    entries: t.field({ type: [ChangeEntryRef], resolve: (change) => change.entries }),
  }),
});

const MapHistoryRef = builder
  .objectRef<{ changes: MapChangeRefShape[]; undoSeq: number | null; redoSeq: number | null }>('MapHistory')
  .implement({
    description: "A map's history from its event log, newest change first.",
    fields: (t) => ({
      changes: t.field({ type: [MapChangeRef], resolve: (h) => h.changes }),
      undoSeq: t.exposeInt('undoSeq', { nullable: true, description: 'The change undoLastChange would take back.' }),
      redoSeq: t.exposeInt('redoSeq', { nullable: true, description: 'The undo redoLastUndo would take back.' }),
    }),
  });
type MapChangeRefShape = MapChange & { revertedBy: number | null };

export const CompensationRef = builder.objectRef<CompensationResult>('CompensationResult').implement({
  description: 'A change written by undo, redo, undoRun or restoreMap (`seq` null when nothing needed changing).',
  fields: (t) => ({
    mapId: t.exposeID('mapId'),
    seq: t.exposeInt('seq', { nullable: true }),
  }),
});

/** The errors of the undo, redo and restore mutations. */
export const UNDO_ERRORS = [...ACCESS_ERRORS, UndoRefusedError];

builder.queryField('mapHistory', (t) =>
  t.field({
    type: MapHistoryRef,
    description: "A map's changes from its event log, newest first: who made each, and the fields before and after.",
    errors: { types: ACCESS_ERRORS },
    args: {
      mapId: t.arg.id({ required: true }),
      first: t.arg.int({ defaultValue: 50, description: 'How many changes, newest first (at most 200).' }),
    },
    resolve: async (_root, args, ctx) => {
      const mapId = String(args.mapId);
      await assertMapAccess(ctx, mapId);
      const { changes } = buildChanges(await readHistoryEvents(ctx.db.read, mapId));
      const by = revertedBy(changes);
      const stacks = personStacks(changes);
      const first = Math.max(0, Math.min(args.first ?? 50, 200));
      return {
        changes: changes
          .slice(-first)
          .reverse()
          .map((c) => ({ ...c, revertedBy: by.get(c.seq) ?? null })),
        undoSeq: nextUndo(changes)?.[0].seq ?? null,
        redoSeq: stacks.redo.at(-1)?.[0].seq ?? null,
      };
    },
  }),
);
