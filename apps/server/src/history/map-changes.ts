import type { ChangeKind } from '@thinkingmap/db';
import type { HistoryEvent } from './history-events.ts';
import {
  applyEvent,
  type Entity,
  type EntityKind,
  fieldOf,
  keepArchives,
  type MapState,
  type NodeArchives,
  TRACKED_FIELDS,
} from './map-state.ts';

/** One field a change set: its value before and after. */
export interface FieldDiff {
  field: string;
  before: unknown;
  after: unknown;
}

/** What one change did to one entity. */
export interface ChangeEntry {
  key: string;
  kind: EntityKind;
  id: string;
  action: 'CREATED' | 'UPDATED' | 'DELETED';
  before: Entity | null;
  after: Entity | null;
  /** The tracked fields that differ (all of them for a creation or deletion). */
  fields: FieldDiff[];
}

/** One command's change to the map, with who made it and what it did. */
export interface MapChange {
  seq: number;
  lastSeq: number;
  at: string;
  actorId: string | null;
  runId: string | null;
  step: string | null;
  kind: ChangeKind;
  revertsSeq: number | null;
  entries: ChangeEntry[];
}

/** The tracked fields whose values differ between two versions of an entity. */
export function diffFields(kind: EntityKind, before: Entity | null, after: Entity | null): FieldDiff[] {
  const read = (entity: Entity | null, field: string) => fieldOf(entity, field) ?? null;
  return TRACKED_FIELDS[kind]
    .map((field) => ({ field, before: read(before, field), after: read(after, field) }))
    .filter((d) => JSON.stringify(d.before) !== JSON.stringify(d.after));
}

function entryOf(key: string, before: Entity | null, after: Entity | null): ChangeEntry | null {
  const entity = (after ?? before)!;
  const fields = diffFields(entity.kind, before, after);
  if (before && after && fields.length === 0) return null;
  if (!before && !after) return null;
  const action = !before ? 'CREATED' : !after ? 'DELETED' : 'UPDATED';
  return { key, kind: entity.kind, id: entity.id, action, before, after, fields };
}

/** Whether a change continues the one before it as the same step of the same run (one agent step, one change). */
const sameStep = (previous: MapChange | undefined, change: MapChange) =>
  previous !== undefined &&
  change.runId !== null &&
  change.step !== null &&
  change.kind === 'EDIT' &&
  previous.kind === 'EDIT' &&
  previous.runId === change.runId &&
  previous.step === change.step;

/** Two changes of one step as one: each entity from before the first to after the second. */
function joined(first: MapChange, second: MapChange): MapChange {
  const before = new Map(first.entries.map((e) => [e.key, e.before] as const));
  const after = new Map(first.entries.map((e) => [e.key, e.after] as const));
  for (const entry of second.entries) {
    if (!before.has(entry.key)) before.set(entry.key, entry.before);
    after.set(entry.key, entry.after);
  }
  const entries = [...before]
    .map(([key, was]) => entryOf(key, was, after.get(key) ?? null))
    .filter((entry): entry is ChangeEntry => entry !== null);
  return { ...first, lastSeq: second.lastSeq, entries };
}

/**
 * Folds a map's log into its changes, oldest first: the events of one command make one change, and the commands
 * one step of a run wrote in a row (the sub-questions an approval creates, one command each, then their
 * dependencies) make one change too; each entry holds the entity before and after it. Commands that changed no
 * tracked field (a run's progress) are left out. Also returns the state after the whole log, and the archives of
 * the nodes deleted in it.
 */
export function buildChanges(events: readonly HistoryEvent[]): {
  changes: MapChange[];
  state: MapState;
  archives: NodeArchives;
} {
  const state: MapState = new Map();
  const archives: NodeArchives = new Map();
  const changes: MapChange[] = [];
  let i = 0;
  while (i < events.length) {
    const first = events[i]!;
    const before = new Map<string, Entity | null>();
    let last = first;
    let started: string | null = null;
    for (; i < events.length && events[i]!.changeSeq === first.changeSeq; i++) {
      const event = events[i]!;
      last = event;
      if (event.type === 'RunStarted') started = event.payload.run.id;
      applyEvent(state, event, (key, previous) => {
        if (!before.has(key)) before.set(key, previous);
      });
      keepArchives(archives, event);
    }
    const entries = [...before]
      .map(([key, was]) => entryOf(key, was, state.get(key) ?? null))
      .filter((entry): entry is ChangeEntry => entry !== null);
    if (entries.length === 0) continue;
    const change: MapChange = {
      seq: first.changeSeq,
      lastSeq: last.seq,
      at: first.createdAt,
      // One command's events share who made them; the command that starts a run (its node now RUNNING) belongs
      // to the run, so undoing the run takes that back too.
      actorId: first.actorId,
      runId: first.runId ?? started,
      step: first.step,
      kind: first.changeKind,
      revertsSeq: first.revertsSeq,
      entries,
    };
    const previous = changes.at(-1);
    if (previous && sameStep(previous, change)) changes[changes.length - 1] = joined(previous, change);
    else changes.push(change);
  }
  return { changes, state, archives };
}

/** The map as its log says it was just after the change that starts at or before `seq` (the commands up to it). */
export function stateAt(events: readonly HistoryEvent[], seq: number): MapState {
  const state: MapState = new Map();
  for (const event of events) if (event.changeSeq <= seq) applyEvent(state, event);
  return state;
}
