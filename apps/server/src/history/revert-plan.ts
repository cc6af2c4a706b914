import type { ChangeEntry, MapChange } from './map-changes.ts';
import { type Entity, fieldOf, type MapState, withFields } from './map-state.ts';
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

/** Whether a change was made by the person (not a run). */
export const byPerson = (change: MapChange) => change.runId === null;

/**
 * The person's undo and redo stacks, replayed from their changes: an edit (or a restore, or an undo of a run)
 * goes on the undo stack and clears the redo stack; an undo takes its change off the undo stack and goes on the
 * redo stack; a redo takes its undo off the redo stack and goes on the undo stack.
 */
export function personStacks(changes: readonly MapChange[]): { undo: MapChange[]; redo: MapChange[] } {
  const undo: MapChange[] = [];
  const redo: MapChange[] = [];
  const bySeq = new Map(changes.map((c) => [c.seq, c]));
  for (const change of changes.filter(byPerson)) {
    if (change.kind === 'UNDO' && change.revertsSeq !== null && !undoneRun(change, bySeq)) {
      const at = undo.findLastIndex((c) => c.seq === change.revertsSeq);
      if (at >= 0) undo.splice(at, 1);
      redo.push(change);
    } else if (change.kind === 'REDO') {
      const at = redo.findLastIndex((c) => c.seq === change.revertsSeq);
      if (at >= 0) redo.splice(at, 1);
      undo.push(change);
    } else {
      undo.push(change);
      redo.length = 0;
    }
  }
  return { undo, redo };
}
