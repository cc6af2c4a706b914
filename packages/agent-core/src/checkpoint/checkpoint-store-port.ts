/** A serialized value as the checkpoint serializer produced it: JSON text, or base64 for `bytes`. */
export interface SerializedValue {
  type: string;
  data: string;
}

/** One checkpoint row. Checkpoint ids are time-ordered (uuid6): the greatest id of a thread is its latest. */
export interface CheckpointRow {
  threadId: string;
  /** Checkpoint namespace; `''` for the top-level graph, non-empty for subgraphs. */
  namespace: string;
  checkpointId: string;
  parentCheckpointId: string | null;
  checkpoint: SerializedValue;
  metadata: SerializedValue;
}

/** One pending write of a task, linked to the checkpoint it follows. Key: thread, namespace, checkpoint, task, idx. */
export interface CheckpointWriteRow {
  threadId: string;
  namespace: string;
  checkpointId: string;
  taskId: string;
  /** The task's path, for ordering; `''` when unknown. */
  taskPath: string;
  /** Position of the write in the task's output; negative for special writes (errors, interrupts). */
  idx: number;
  channel: string;
  value: SerializedValue;
}

/** Which checkpoints {@link CheckpointStorePort.listCheckpoints} returns. */
export interface CheckpointQuery {
  threadId?: string;
  namespace?: string;
  /** Only checkpoints with an id strictly smaller than this one. */
  beforeCheckpointId?: string;
  limit?: number;
}

/**
 * Rows of serialized LangGraph checkpoints and writes, kept wherever the server keeps data (two tables in
 * the product's database). {@link PortCheckpointSaver} does all the LangGraph logic; this port only stores.
 */
export interface CheckpointStorePort {
  /** Inserts a checkpoint, replacing a row with the same thread, namespace and id. */
  putCheckpoint(row: CheckpointRow): Promise<void>;
  /** One checkpoint, or the latest of the thread and namespace when `checkpointId` is absent; null when none. */
  getCheckpoint(threadId: string, namespace: string, checkpointId?: string): Promise<CheckpointRow | null>;
  /** Checkpoints matching the query, newest first (descending checkpoint id). */
  listCheckpoints(query: CheckpointQuery): Promise<CheckpointRow[]>;
  /**
   * Stores writes. A row whose key exists is ignored when its `idx` is >= 0 (a re-run task must not change
   * what was recorded) and replaces the old row when `idx` is negative.
   */
  putWrites(rows: CheckpointWriteRow[]): Promise<void>;
  /** The writes linked to one checkpoint, in any order. */
  listWrites(threadId: string, namespace: string, checkpointId: string): Promise<CheckpointWriteRow[]>;
  /** Deletes every checkpoint and write of a thread (a finished run's history, or a cancelled run). */
  deleteThread(threadId: string): Promise<void>;
}
