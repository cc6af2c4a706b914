import type { CheckpointQuery, CheckpointRow, CheckpointStorePort, CheckpointWriteRow } from '@thinkingmap/agent-core';
import type { CheckpointData, CheckpointWrite, Database, Tx } from '@thinkingmap/db';

/** A database row as a checkpoint. */
export const toCheckpointRow = (c: CheckpointData): CheckpointRow => ({
  threadId: c.threadId,
  namespace: c.namespace,
  checkpointId: c.checkpointId,
  parentCheckpointId: c.parentCheckpointId,
  checkpoint: { type: c.checkpointType, data: c.checkpointData },
  metadata: { type: c.metadataType, data: c.metadataData },
});

const toWriteRow = (w: CheckpointWrite): CheckpointWriteRow => ({
  threadId: w.threadId,
  namespace: w.namespace,
  checkpointId: w.checkpointId,
  taskId: w.taskId,
  taskPath: w.taskPath,
  idx: w.idx,
  channel: w.channel,
  value: { type: w.valueType, data: w.valueData },
});

/** A checkpoint as a database row. */
export const toCheckpointData = (row: CheckpointRow): CheckpointData => ({
  threadId: row.threadId,
  namespace: row.namespace,
  checkpointId: row.checkpointId,
  parentCheckpointId: row.parentCheckpointId,
  checkpointType: row.checkpoint.type,
  checkpointData: row.checkpoint.data,
  metadataType: row.metadata.type,
  metadataData: row.metadata.data,
});

/** A pending write as a database row. */
export const toWriteData = (row: CheckpointWriteRow): CheckpointWrite => ({
  threadId: row.threadId,
  namespace: row.namespace,
  checkpointId: row.checkpointId,
  taskId: row.taskId,
  idx: row.idx,
  taskPath: row.taskPath,
  channel: row.channel,
  valueType: row.value.type,
  valueData: row.value.data,
});

/**
 * Keeps the checkpoints of the last `window` finished (completed or failed) runs of a map and deletes those of
 * older ones, in the caller's transaction. Each settle pushes at most one run out of the window, so looking at
 * the next few beyond it is enough. Returns the threads pruned.
 */
export async function pruneFinishedIn(db: Database, tx: Tx, mapId: string, window: number): Promise<string[]> {
  const threads = await db.runLog.finishedThreads(tx, mapId, window, 10);
  await db.checkpointLog.deleteThreads(tx, threads);
  return threads;
}

/**
 * The bytes runs hold in checkpoints and pending writes (serialized state and metadata): a map's runs, or
 * the runs given by id. `runs` counts those that hold any.
 */
export async function checkpointBytesOf(
  db: Database,
  of: { mapId: string } | { runIds: string[] },
): Promise<{ runs: number; bytes: number }> {
  const where = 'mapId' in of ? { mapId: of.mapId } : { id: { in: of.runIds } };
  const runs = await db.read.agentRun.findMany({ where, select: { threadId: true } });
  const threadId = { in: runs.map((r) => r.threadId) };
  const checkpoints = await db.read.checkpoint.findMany({
    where: { threadId },
    select: { threadId: true, checkpointData: true, metadataData: true },
  });
  const writes = await db.read.checkpointWrite.findMany({ where: { threadId }, select: { valueData: true } });
  const size = (s: string) => Buffer.byteLength(s);
  const bytes =
    checkpoints.reduce((sum, c) => sum + size(c.checkpointData) + size(c.metadataData), 0) +
    writes.reduce((sum, w) => sum + size(w.valueData), 0);
  return { runs: new Set(checkpoints.map((c) => c.threadId)).size, bytes };
}

/**
 * LangGraph checkpoints in the product's own database (SQLite or PostgreSQL), so a run waiting for the
 * person survives a restart. Checkpoints are a run's private state, not map data: they carry no event and
 * are written through the single write path, not as commands.
 */
export class PrismaCheckpointStore implements CheckpointStorePort {
  constructor(private readonly db: Database) {}

  async putCheckpoint(row: CheckpointRow): Promise<void> {
    await this.db.write((tx) => this.db.checkpointLog.putCheckpoints(tx, [toCheckpointData(row)]));
  }

  async getCheckpoint(threadId: string, namespace: string, checkpointId?: string): Promise<CheckpointRow | null> {
    const row = await this.db.checkpointLog.latest(threadId, namespace, checkpointId);
    return row ? toCheckpointRow(row) : null;
  }

  async listCheckpoints(query: CheckpointQuery): Promise<CheckpointRow[]> {
    const rows = await this.db.read.checkpoint.findMany({
      where: {
        ...(query.threadId !== undefined ? { threadId: query.threadId } : {}),
        ...(query.namespace !== undefined ? { namespace: query.namespace } : {}),
        ...(query.beforeCheckpointId ? { checkpointId: { lt: query.beforeCheckpointId } } : {}),
      },
      orderBy: { checkpointId: 'desc' },
      ...(query.limit ? { take: query.limit } : {}),
    });
    return rows.map(toCheckpointRow);
  }

  async putWrites(rows: CheckpointWriteRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.write((tx) => this.db.checkpointLog.putWrites(tx, rows.map(toWriteData)));
  }

  async listWrites(threadId: string, namespace: string, checkpointId: string): Promise<CheckpointWriteRow[]> {
    const rows = await this.db.checkpointLog.writesOf(threadId, namespace, checkpointId);
    return rows.map(toWriteRow);
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.db.write((tx) => this.db.checkpointLog.deleteThreads(tx, [threadId]));
  }
}
