import type { CheckpointQuery, CheckpointRow, CheckpointStorePort, CheckpointWriteRow } from '@thinkingmap/agent-core';
import type { CheckpointLog, Tx } from '@thinkingmap/db';
import { toCheckpointData, toWriteData } from './prisma-checkpoint-store.ts';

const checkpointKey = (r: { threadId: string; namespace: string; checkpointId: string }) =>
  JSON.stringify([r.threadId, r.namespace, r.checkpointId]);
const writeKey = (w: CheckpointWriteRow) => JSON.stringify([w.threadId, w.namespace, w.checkpointId, w.taskId, w.idx]);

/**
 * One drive's checkpoints: read from the database, written to memory, and stored by the run's settle in
 * its own transaction (`keepIn`, one batched insert) — or dropped with the thread's older rows when the run ends
 * (`dropIn`). A paused run's checkpoints and its questions therefore commit together, and a finished run writes
 * no checkpoint it would delete a moment later. Nothing during the drive needs the database: with
 * `durability: 'exit'` LangGraph writes only when the drive stops; with `'async'` (node runs) it writes every
 * step's checkpoint here, which costs their serialization only.
 */
export class DriveCheckpointStore implements CheckpointStorePort {
  readonly #checkpoints = new Map<string, CheckpointRow>();
  readonly #writes = new Map<string, CheckpointWriteRow>();

  constructor(
    private readonly stored: CheckpointStorePort,
    /** A new run's first drive: the database holds nothing of its thread, so reads need not ask it. */
    private readonly options: { fresh?: boolean } = {},
  ) {}

  async putCheckpoint(row: CheckpointRow): Promise<void> {
    // Serialized text only: a shallow copy is a copy.
    this.#checkpoints.set(checkpointKey(row), {
      ...row,
      checkpoint: { ...row.checkpoint },
      metadata: { ...row.metadata },
    });
  }

  async getCheckpoint(threadId: string, namespace: string, checkpointId?: string): Promise<CheckpointRow | null> {
    const mine =
      [...this.#checkpoints.values()]
        .filter((r) => r.threadId === threadId && r.namespace === namespace)
        .filter((r) => !checkpointId || r.checkpointId === checkpointId)
        .sort((a, b) => (a.checkpointId < b.checkpointId ? 1 : -1))[0] ?? null;
    if (mine && checkpointId) return mine;
    const stored = this.options.fresh ? null : await this.stored.getCheckpoint(threadId, namespace, checkpointId);
    if (!mine || !stored) return mine ?? stored;
    // Checkpoint ids are time-ordered: the greater is the later.
    return mine.checkpointId > stored.checkpointId ? mine : stored;
  }

  async listCheckpoints(query: CheckpointQuery): Promise<CheckpointRow[]> {
    const mine = [...this.#checkpoints.values()].filter(
      (r) =>
        (query.threadId === undefined || r.threadId === query.threadId) &&
        (query.namespace === undefined || r.namespace === query.namespace) &&
        (!query.beforeCheckpointId || r.checkpointId < query.beforeCheckpointId),
    );
    const stored = this.options.fresh ? [] : await this.stored.listCheckpoints(query);
    const older = stored.filter((r) => !this.#checkpoints.has(checkpointKey(r)));
    const all = [...mine, ...older].sort((a, b) => (a.checkpointId < b.checkpointId ? 1 : -1));
    return query.limit ? all.slice(0, query.limit) : all;
  }

  async putWrites(rows: CheckpointWriteRow[]): Promise<void> {
    for (const row of rows) {
      const key = writeKey(row);
      if (row.idx >= 0 && this.#writes.has(key)) continue;
      // Serialized text only, like a checkpoint: a shallow copy is a copy.
      this.#writes.set(key, { ...row, value: { ...row.value } });
    }
  }

  async listWrites(threadId: string, namespace: string, checkpointId: string): Promise<CheckpointWriteRow[]> {
    const mine = [...this.#writes.values()].filter(
      (w) => w.threadId === threadId && w.namespace === namespace && w.checkpointId === checkpointId,
    );
    const stored = this.options.fresh ? [] : await this.stored.listWrites(threadId, namespace, checkpointId);
    const taken = new Set(mine.map(writeKey));
    // A stored row with idx >= 0 wins over a re-run task's new one (the port's rule); special writes are replaced.
    const kept = stored.filter((w) => !taken.has(writeKey(w)) || w.idx >= 0);
    const keptKeys = new Set(kept.map(writeKey));
    return [...kept, ...mine.filter((w) => !keptKeys.has(writeKey(w)))];
  }

  async deleteThread(threadId: string): Promise<void> {
    for (const [key, row] of this.#checkpoints) if (row.threadId === threadId) this.#checkpoints.delete(key);
    for (const [key, row] of this.#writes) if (row.threadId === threadId) this.#writes.delete(key);
    await this.stored.deleteThread(threadId);
  }

  /**
   * Stores what this drive wrote, in the caller's transaction (a paused run keeps its checkpoints). Of the
   * pending writes only those of each thread's latest checkpoint are kept: the run resumes from it, and each
   * earlier step's writes are in the checkpoint after it.
   */
  async keepIn(log: CheckpointLog, tx: Tx): Promise<void> {
    const latest = new Map<string, string>();
    for (const r of this.#checkpoints.values()) {
      const thread = JSON.stringify([r.threadId, r.namespace]);
      if ((latest.get(thread) ?? '') < r.checkpointId) latest.set(thread, r.checkpointId);
    }
    const writes = [...this.#writes.values()].filter((w) => {
      const newest = latest.get(JSON.stringify([w.threadId, w.namespace]));
      return newest === undefined || w.checkpointId === newest;
    });
    await log.putCheckpoints(tx, [...this.#checkpoints.values()].map(toCheckpointData));
    await log.putWrites(tx, writes.map(toWriteData));
  }

  /**
   * Stores this drive's checkpoints for a run that ended and is kept for inspection: its pending writes are not
   * needed any more (each step's are in the next checkpoint), so they are dropped.
   */
  async keepFinishedIn(log: CheckpointLog, tx: Tx): Promise<void> {
    this.#writes.clear();
    await log.putCheckpoints(tx, [...this.#checkpoints.values()].map(toCheckpointData));
  }

  /** Drops what this drive wrote and deletes the thread's stored rows in the caller's transaction (a run that ended). */
  async dropIn(log: CheckpointLog, tx: Tx, threadId: string): Promise<void> {
    this.#checkpoints.clear();
    this.#writes.clear();
    await log.deleteThreads(tx, [threadId]);
  }
}
