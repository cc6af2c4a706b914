import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  compareWritesSortKeys,
  copyCheckpoint,
  getCheckpointId,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
  writesSortKey,
} from '@langchain/langgraph-checkpoint';
import type { CheckpointRow, CheckpointStorePort, SerializedValue } from './checkpoint-store-port.ts';
import { dumpSerialized, loadCheckpoint, loadMetadata, loadSerialized } from './step-checkpoints.ts';

/** A string setting of a run's `configurable` (thread, namespace, checkpoint), if it is set. */
function setting(config: RunnableConfig | undefined, key: string): string | undefined {
  const value = config?.configurable?.[key];
  return typeof value === 'string' ? value : undefined;
}

const metadataOf = (tuple: CheckpointTuple): Record<string, unknown> | undefined => tuple.metadata;

/**
 * A LangGraph checkpointer over a {@link CheckpointStorePort}, so paused runs live in the product's
 * database and survive restarts: a new saver over the same rows resumes where the old one stopped.
 */
export class PortCheckpointSaver extends BaseCheckpointSaver {
  constructor(
    private readonly rows: CheckpointStorePort,
    serde?: SerializerProtocol,
  ) {
    super(serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = setting(config, 'thread_id');
    if (threadId === undefined) return undefined;
    const namespace = setting(config, 'checkpoint_ns') ?? '';
    const row = await this.rows.getCheckpoint(threadId, namespace, getCheckpointId(config) || undefined);
    return row ? this.toTuple(row) : undefined;
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let { limit } = options;
    const rows = await this.rows.listCheckpoints({
      threadId: setting(config, 'thread_id'),
      namespace: setting(config, 'checkpoint_ns'),
      beforeCheckpointId: setting(before, 'checkpoint_id'),
      limit: filter ? undefined : limit,
    });
    const wanted = setting(config, 'checkpoint_id');
    for (const row of rows) {
      if (wanted && row.checkpointId !== wanted) continue;
      const tuple = await this.toTuple(row);
      if (filter && !Object.entries(filter).every(([key, value]) => metadataOf(tuple)?.[key] === value)) continue;
      if (limit !== undefined && limit-- <= 0) break;
      yield tuple;
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    _newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = setting(config, 'thread_id');
    if (threadId === undefined) throw new Error('PortCheckpointSaver.put needs configurable.thread_id');
    const namespace = setting(config, 'checkpoint_ns') ?? '';
    await this.rows.putCheckpoint({
      threadId,
      namespace,
      checkpointId: checkpoint.id,
      parentCheckpointId: setting(config, 'checkpoint_id') ?? null,
      checkpoint: await this.dump(copyCheckpoint(checkpoint)),
      metadata: await this.dump(metadata),
    });
    return { configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = setting(config, 'thread_id');
    const checkpointId = setting(config, 'checkpoint_id');
    if (threadId === undefined || checkpointId === undefined)
      throw new Error('PortCheckpointSaver.putWrites needs thread_id and checkpoint_id');
    const namespace = setting(config, 'checkpoint_ns') ?? '';
    const rows = await Promise.all(
      writes.map(async ([channel, value], idx) => ({
        threadId,
        namespace,
        checkpointId,
        taskId,
        taskPath: taskPath ?? '',
        idx: WRITES_IDX_MAP[channel] ?? idx,
        channel,
        value: await this.dump(value),
      })),
    );
    await this.rows.putWrites(rows);
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.rows.deleteThread(threadId);
  }

  private async toTuple(row: CheckpointRow): Promise<CheckpointTuple> {
    const writes = await this.rows.listWrites(row.threadId, row.namespace, row.checkpointId);
    writes.sort((a, b) =>
      compareWritesSortKeys(writesSortKey(a.taskPath, a.taskId, a.idx), writesSortKey(b.taskPath, b.taskId, b.idx)),
    );
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      writes.map(async (w): Promise<CheckpointPendingWrite> => [w.taskId, w.channel, await this.load(w.value)]),
    );
    const configurable = { thread_id: row.threadId, checkpoint_ns: row.namespace };
    return {
      config: { configurable: { ...configurable, checkpoint_id: row.checkpointId } },
      checkpoint: await loadCheckpoint(this.serde, row.checkpoint),
      metadata: await loadMetadata(this.serde, row.metadata),
      pendingWrites,
      ...(row.parentCheckpointId
        ? { parentConfig: { configurable: { ...configurable, checkpoint_id: row.parentCheckpointId } } }
        : {}),
    };
  }

  private dump(value: unknown): Promise<SerializedValue> {
    return dumpSerialized(this.serde, value);
  }

  private load(value: SerializedValue): Promise<unknown> {
    return loadSerialized(this.serde, value);
  }
}
