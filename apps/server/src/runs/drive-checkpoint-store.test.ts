import type { CheckpointRow, CheckpointWriteRow } from '@thinkingmap/agent-core';
import { InMemoryCheckpointStore } from '@thinkingmap/agent-core/testing';
import type { CheckpointData, CheckpointLog, CheckpointWrite, Tx } from '@thinkingmap/db';
import { describe, expect, it } from 'vitest';
import { DriveCheckpointStore } from './drive-checkpoint-store.ts';

const checkpoint = (checkpointId: string, data = checkpointId): CheckpointRow => ({
  threadId: 't',
  namespace: '',
  checkpointId,
  parentCheckpointId: null,
  checkpoint: { type: 'json', data },
  metadata: { type: 'json', data: '{}' },
});

const write = (idx: number, data: string, checkpointId = 'c1'): CheckpointWriteRow => ({
  threadId: 't',
  namespace: '',
  checkpointId,
  taskId: 'task',
  taskPath: '',
  idx,
  channel: 'x',
  value: { type: 'json', data },
});

describe('a drive’s checkpoint store', () => {
  it('should serve what the drive wrote together with what was stored, newest first, without storing it', async () => {
    const stored = new InMemoryCheckpointStore();
    await stored.putCheckpoint(checkpoint('c1'));
    const drive = new DriveCheckpointStore(stored);
    await drive.putCheckpoint(checkpoint('c2'));
    expect((await drive.getCheckpoint('t', ''))?.checkpointId).toBe('c2');
    expect((await drive.listCheckpoints({ threadId: 't' })).map((r) => r.checkpointId)).toEqual(['c2', 'c1']);
    expect((await drive.listCheckpoints({ threadId: 't', limit: 1 })).map((r) => r.checkpointId)).toEqual(['c2']);
    expect((await drive.getCheckpoint('t', '', 'c1'))?.checkpointId).toBe('c1');
    expect(stored.checkpoints.map((r) => r.checkpointId)).toEqual(['c1']);
  });

  it('should keep a stored write of a re-run task and replace a special one, as the database would', async () => {
    const stored = new InMemoryCheckpointStore();
    await stored.putWrites([write(0, 'first run'), write(-1, 'old interrupt')]);
    const drive = new DriveCheckpointStore(stored);
    await drive.putWrites([write(0, 'second run'), write(-1, 'new interrupt'), write(1, 'new value')]);
    const seen = await drive.listWrites('t', '', 'c1');
    expect(Object.fromEntries(seen.map((w) => [w.idx, w.value.data]))).toEqual({
      0: 'first run',
      '-1': 'new interrupt',
      1: 'new value',
    });
  });

  it('should store every checkpoint of the drive in one batch, with the pending writes of the latest only', async () => {
    const drive = new DriveCheckpointStore(new InMemoryCheckpointStore(), { fresh: true });
    for (const id of ['c1', 'c2', 'c3']) {
      await drive.putCheckpoint(checkpoint(id));
      await drive.putWrites([write(0, `step after ${id}`, id)]);
    }
    const stored: { checkpoints: CheckpointData[][]; writes: CheckpointWrite[][] } = { checkpoints: [], writes: [] };
    const log = {
      putCheckpoints: async (_tx: Tx, rows: readonly CheckpointData[]) => void stored.checkpoints.push([...rows]),
      putWrites: async (_tx: Tx, rows: readonly CheckpointWrite[]) => void stored.writes.push([...rows]),
    } as unknown as CheckpointLog;
    await drive.keepIn(log, {} as Tx);
    expect(stored.checkpoints.map((batch) => batch.map((r) => r.checkpointId))).toEqual([['c1', 'c2', 'c3']]);
    // The run resumes from its latest checkpoint; each earlier step's writes are in the checkpoint after it.
    expect(stored.writes.map((batch) => batch.map((w) => w.valueData))).toEqual([['step after c3']]);
  });
});
