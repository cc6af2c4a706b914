import type { ChangeEntry, MapChange } from './map-changes.ts';
import { decidedByPerson, personUnits } from './person-changes.ts';

/**
 * The edits of one run that taking the run back takes back, each with only the `taken` entries (those left with
 * none are not taken back). `undoRun` takes back what this selects, and the history marks the same changes undone.
 */
export function runEdits(
  changes: readonly MapChange[],
  runId: string,
  taken: (entry: ChangeEntry) => boolean = () => true,
): MapChange[] {
  return changes
    .filter((c) => c.runId === runId && c.kind === 'EDIT')
    .map((c) => ({ ...c, entries: c.entries.filter(taken) }))
    .filter((c) => c.entries.length > 0);
}

/**
 * The run a change undid, when it is an undo of a whole run (it names that run's first change it took back);
 * null for any other change, an undo of one change a run made on the person's decision among them.
 */
export function undoneRun(change: MapChange, bySeq: ReadonlyMap<number, MapChange>): string | null {
  if (change.kind !== 'UNDO' || change.revertsSeq === null) return null;
  const reverted = bySeq.get(change.revertsSeq);
  return reverted && !decidedByPerson(reverted) ? reverted.runId : null;
}

/**
 * Which later change took each change back and still stands (its first sequence number): an undo or redo takes
 * back the change it names, an undo of a run every edit of the run before it. A taking-back that was itself
 * taken back (an undo redone) no longer counts: the change it took back is in effect again, and is not listed.
 * Read from the changes, oldest first.
 */
export function revertedBy(changes: readonly MapChange[]): Map<number, number> {
  const bySeq = new Map(changes.map((c) => [c.seq, c]));
  // An undo of one decision of the person's takes back every change of it.
  const units = new Map(personUnits(changes).map((unit) => [unit[0].seq, unit]));
  const by = new Map<number, number>();
  changes.forEach((change, at) => {
    if (change.revertsSeq === null) return;
    const run = undoneRun(change, bySeq);
    const taken = run
      ? runEdits(changes.slice(0, at), run).map((c) => c.seq)
      : (units.get(change.revertsSeq)?.map((c) => c.seq) ?? [change.revertsSeq]);
    for (const seq of taken) by.set(seq, change.seq);
  });
  // Newest first: whether a change's taking-back stands is known before the change itself (it comes later).
  const stands = new Map<number, boolean>();
  for (const { seq } of [...changes].sort((a, b) => b.seq - a.seq)) {
    const taker = by.get(seq);
    stands.set(seq, taker === undefined || !stands.get(taker));
  }
  for (const [seq, taker] of by) if (!stands.get(taker)) by.delete(seq);
  return by;
}
