import type {
  CheckpointQuery,
  CheckpointRow,
  CheckpointStorePort,
  CheckpointWriteRow,
} from '../checkpoint/checkpoint-store-port.ts';

const writeKey = (w: CheckpointWriteRow) => JSON.stringify([w.threadId, w.namespace, w.checkpointId, w.taskId, w.idx]);

/**
 * A {@link CheckpointStorePort} over two arrays, behaving like two database tables. Rows are copied in and
 * out through JSON, so nothing but the stored text survives — like a real database across a restart.
 */
export class InMemoryCheckpointStore implements CheckpointStorePort {
  readonly checkpoints: CheckpointRow[] = [];
  readonly writes = new Map<string, CheckpointWriteRow>();

  async putCheckpoint(row: CheckpointRow): Promise<void> {
    const at = this.checkpoints.findIndex(
      (r) => r.threadId === row.threadId && r.namespace === row.namespace && r.checkpointId === row.checkpointId,
    );
    if (at >= 0) this.checkpoints.splice(at, 1);
    this.checkpoints.push(structuredClone(row));
  }

  async getCheckpoint(threadId: string, namespace: string, checkpointId?: string): Promise<CheckpointRow | null> {
    const rows = await this.listCheckpoints({ threadId, namespace });
    return (checkpointId ? rows.find((r) => r.checkpointId === checkpointId) : rows[0]) ?? null;
  }

  async listCheckpoints(query: CheckpointQuery): Promise<CheckpointRow[]> {
    const rows = this.checkpoints
      .filter(
        (r) =>
          (query.threadId === undefined || r.threadId === query.threadId) &&
          (query.namespace === undefined || r.namespace === query.namespace),
      )
      .filter((r) => query.beforeCheckpointId === undefined || r.checkpointId < query.beforeCheckpointId)
      .sort((a, b) => (a.checkpointId < b.checkpointId ? 1 : -1));
    return structuredClone(query.limit === undefined ? rows : rows.slice(0, query.limit));
  }

  async putWrites(rows: CheckpointWriteRow[]): Promise<void> {
    for (const row of rows) {
      if (row.idx >= 0 && this.writes.has(writeKey(row))) continue;
      this.writes.set(writeKey(row), structuredClone(row));
    }
  }

  async listWrites(threadId: string, namespace: string, checkpointId: string): Promise<CheckpointWriteRow[]> {
    return structuredClone(
      [...this.writes.values()].filter(
        (w) => w.threadId === threadId && w.namespace === namespace && w.checkpointId === checkpointId,
      ),
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    for (let i = this.checkpoints.length - 1; i >= 0; i -= 1)
      if (this.checkpoints[i]!.threadId === threadId) this.checkpoints.splice(i, 1);
    for (const [key, row] of this.writes) if (row.threadId === threadId) this.writes.delete(key);
  }
}
