import type { ChangeKind } from '@thinkingmap/db';
import { describe, expect, it } from 'vitest';
import type { MapChange } from './map-changes.ts';
import { revertedBy } from './reverted-by.ts';

const entry = { entity: 'NODE', id: 'n1', action: 'UPDATED', fields: [] } as unknown as MapChange['entries'][number];

function change(
  seq: number,
  kind: ChangeKind,
  revertsSeq: number | null = null,
  runId: string | null = null,
): MapChange {
  return { seq, lastSeq: seq, at: '', actorId: 'alice', runId, step: null, kind, revertsSeq, entries: [entry] };
}

describe('revertedBy', () => {
  it('should mark a change undone by its undo, and in effect again once the undo is redone', () => {
    const edit = change(1, 'EDIT');
    const undo = change(2, 'UNDO', 1);
    expect(Object.fromEntries(revertedBy([edit, undo]))).toEqual({ 1: 2 });
    const redo = change(3, 'REDO', 2);
    expect(Object.fromEntries(revertedBy([edit, undo, redo]))).toEqual({ 2: 3 });
  });

  it('should follow a chain of undo, redo and undo of the redo to what stands', () => {
    const changes = [change(1, 'EDIT'), change(2, 'UNDO', 1), change(3, 'REDO', 2), change(4, 'UNDO', 3)];
    // The redo was taken back, so the first undo stands again: the edit is undone by it.
    expect(Object.fromEntries(revertedBy(changes))).toEqual({ 1: 2, 3: 4 });
  });

  it('should mark every edit of an undone run, and none once that undo is redone', () => {
    const run = [change(1, 'EDIT', null, 'r1'), change(2, 'EDIT', null, 'r1'), change(3, 'EDIT', null, 'r2')];
    const undoRun = change(4, 'UNDO', 1);
    expect(Object.fromEntries(revertedBy([...run, undoRun]))).toEqual({ 1: 4, 2: 4 });
    expect(Object.fromEntries(revertedBy([...run, undoRun, change(5, 'REDO', 4)]))).toEqual({ 4: 5 });
  });
});
