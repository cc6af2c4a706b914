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

/**
 * Folds a map's log into its changes, oldest first: the events of one command make one change; each entry
 * holds the entity before and after it. Commands that changed no tracked field (a run's progress) are left out.
 * Also returns the state after the whole log, and the archives of the nodes deleted in it.
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
    changes.push({
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
    });
  }
  return { changes, state, archives };
}
