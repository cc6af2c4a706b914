import type { CheckpointQuery, CheckpointRow, CheckpointStorePort, CheckpointWriteRow } from '@thinkingmap/agent-core';
import type { Checkpoint, CheckpointWrite, Database } from '@thinkingmap/db';

const toRow = (c: Checkpoint): CheckpointRow => ({
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

/**
 * LangGraph checkpoints in the product's own database (SQLite or PostgreSQL), so a run waiting for the
 * person survives a restart. Writes go through the single write path like every other write.
 */
export class PrismaCheckpointStore implements CheckpointStorePort {
  constructor(private readonly db: Database) {}

  async putCheckpoint(row: CheckpointRow): Promise<void> {
    const data = {
      parentCheckpointId: row.parentCheckpointId,
      checkpointType: row.checkpoint.type,
      checkpointData: row.checkpoint.data,
      metadataType: row.metadata.type,
      metadataData: row.metadata.data,
    };
    const key = { threadId: row.threadId, namespace: row.namespace, checkpointId: row.checkpointId };
    await this.db.write((tx) =>
      tx.checkpoint.upsert({
        where: { threadId_namespace_checkpointId: key },
        create: { ...key, ...data },
        update: data,
      }),
    );
  }

  async getCheckpoint(threadId: string, namespace: string, checkpointId?: string): Promise<CheckpointRow | null> {
    const row = await this.db.prisma.checkpoint.findFirst({
      where: { threadId, namespace, ...(checkpointId ? { checkpointId } : {}) },
      orderBy: { checkpointId: 'desc' },
    });
    return row ? toRow(row) : null;
  }

  async listCheckpoints(query: CheckpointQuery): Promise<CheckpointRow[]> {
    const rows = await this.db.prisma.checkpoint.findMany({
      where: {
        ...(query.threadId !== undefined ? { threadId: query.threadId } : {}),
        ...(query.namespace !== undefined ? { namespace: query.namespace } : {}),
        ...(query.beforeCheckpointId ? { checkpointId: { lt: query.beforeCheckpointId } } : {}),
      },
      orderBy: { checkpointId: 'desc' },
      ...(query.limit ? { take: query.limit } : {}),
    });
    return rows.map(toRow);
  }

  async putWrites(rows: CheckpointWriteRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.write(async (tx) => {
      for (const row of rows) {
        const key = {
          threadId: row.threadId,
          namespace: row.namespace,
          checkpointId: row.checkpointId,
          taskId: row.taskId,
          idx: row.idx,
        };
        const data = {
          taskPath: row.taskPath,
          channel: row.channel,
          valueType: row.value.type,
          valueData: row.value.data,
        };
        const where = { threadId_namespace_checkpointId_taskId_idx: key };
        if (row.idx >= 0) {
          if (!(await tx.checkpointWrite.findUnique({ where })))
            await tx.checkpointWrite.create({ data: { ...key, ...data } });
        } else {
          await tx.checkpointWrite.upsert({ where, create: { ...key, ...data }, update: data });
        }
      }
    });
  }

  async listWrites(threadId: string, namespace: string, checkpointId: string): Promise<CheckpointWriteRow[]> {
    const rows = await this.db.prisma.checkpointWrite.findMany({ where: { threadId, namespace, checkpointId } });
    return rows.map(toWriteRow);
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.db.write(async (tx) => {
      await tx.checkpointWrite.deleteMany({ where: { threadId } });
      await tx.checkpoint.deleteMany({ where: { threadId } });
    });
  }
}
