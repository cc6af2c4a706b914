import type { ChangeEntry, MapChange } from './map-changes.ts';
import { type Entity, fieldOf, type MapState, withFields } from './map-state.ts';
import { type PersonUnit, personUnits } from './person-changes.ts';
import { undoneRun } from './reverted-by.ts';
import { UndoRefusedError } from './undo-refused-error.ts';

/** The entity as it would be with `entry`'s change taken back (its tracked fields set to their values before). */
function reverted(entry: ChangeEntry, current: Entity | null): Entity | null {
  if (entry.action === 'CREATED') return null;
  if (entry.action === 'DELETED' || !current) return entry.before;
  return withFields(
    current,
    entry.fields.map((d) => [d.field, d.before] as const),
  );
}

/** What a later event touched that depends on `entry`: the same fields, or (for a creation) anything on or under it. */
function dependsOn(entry: ChangeEntry, later: ChangeEntry): boolean {
  if (later.key === entry.key) {
    if (entry.action !== 'UPDATED' || later.action !== 'UPDATED') return true;
    const fields = new Set(entry.fields.map((d) => d.field));
    return later.fields.some((d) => fields.has(d.field));
  }
  // What was added on a node is gone with it when a later change deleted that node.
  const on = fieldOf(entry.after ?? entry.before, 'nodeId');
  if ((entry.kind === 'MESSAGE' || entry.kind === 'CONTEXT_ITEM') && later.kind === 'NODE')
    return later.action === 'DELETED' && later.id === on;
  if (entry.action !== 'CREATED' || entry.kind !== 'NODE') return false;
  const entity = later.after ?? later.before;
  return ['parentId', 'nodeId', 'dependsOnId'].some((field) => fieldOf(entity, field) === entry.id);
}

/**
 * The target state that takes back `changes` (one change, or all of a run's), checked against every later
 * change not among them: one that depends on what would be taken back refuses the undo, naming it.
 */
export function revertPlan(
  changes: readonly MapChange[],
  all: readonly MapChange[],
  current: MapState,
): Map<string, Entity | null> {
  const mine = new Set(changes.map((c) => c.seq));
  const first = Math.min(...changes.map((c) => c.seq));
  const entries = changes.flatMap((c) => c.entries);
  for (const later of all) {
    if (later.seq <= first || mine.has(later.seq)) continue;
    for (const entry of entries) {
      const clash = later.entries.find((l) => dependsOn(entry, l));
      if (clash)
        throw new UndoRefusedError(
          'LATER_CHANGE',
          `a later change (#${later.seq}) depends on what would be undone`,
          later.seq,
          clash.id,
        );
    }
  }
  // Newest first, so an entity touched by several of the changes ends as it was before the first of them.
  const target = new Map<string, Entity | null>();
  for (const change of [...changes].reverse()) {
    for (const entry of change.entries) {
      const base = target.has(entry.key) ? target.get(entry.key)! : (current.get(entry.key) ?? null);
      target.set(entry.key, reverted(entry, base));
    }
  }
  return target;
}

/**
 * The person's undo and redo stacks, replayed from their changes (one decision of theirs a run carried out in
 * several commands is one entry, see `personUnits`): an edit (or a restore, or an undo of a run) goes on the undo
 * stack and clears the redo stack; an undo takes its change off the undo stack and goes on the redo stack; a redo
 * takes its undo off the redo stack and goes on the undo stack. An entry is named by its first change's seq.
 */
export function personStacks(changes: readonly MapChange[]): { undo: PersonUnit[]; redo: PersonUnit[] } {
  const undo: PersonUnit[] = [];
  const redo: PersonUnit[] = [];
  const bySeq = new Map(changes.map((c) => [c.seq, c]));
  for (const unit of personUnits(changes)) {
    const change = unit[0];
    if (change.kind === 'UNDO' && change.revertsSeq !== null && !undoneRun(change, bySeq)) {
      const at = undo.findLastIndex((u) => u[0].seq === change.revertsSeq);
      if (at >= 0) undo.splice(at, 1);
      redo.push(unit);
    } else if (change.kind === 'REDO') {
      const at = redo.findLastIndex((u) => u[0].seq === change.revertsSeq);
      if (at >= 0) redo.splice(at, 1);
      undo.push(unit);
    } else {
      undo.push(unit);
      redo.length = 0;
    }
  }
  return { undo, redo };
}

/** Whether a change created the map (an undo does not take that back: deleting the map does). */
const createsMap = (change: MapChange) => change.entries.some((e) => e.kind === 'MAP' && e.action === 'CREATED');

/** What an undo takes back next: the newest entry on the person's undo stack after the map's creation, if any. */
export function nextUndo(changes: readonly MapChange[]): PersonUnit | undefined {
  return personStacks(changes)
    .undo.filter((unit) => !unit.some(createsMap))
    .at(-1);
}
