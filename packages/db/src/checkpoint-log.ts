import type { Checkpoint, CheckpointWrite } from '../generated/sqlite/client.ts';
import type { ReadDb, Tx } from './database.ts';
import { execute, type Statements, slices } from './kysely.ts';

/** A checkpoint row as stored (its `createdAt` is set when it is first stored). */
export type CheckpointData = Omit<Checkpoint, 'createdAt'>;

/**
 * The rows of agent runs' LangGraph checkpoints, written inside the caller's write transaction: every run's settle
 * stores or drops them. A settle stores many rows at once, so each kind of write is one statement for all its rows
 * (Kysely, compiled for the database's dialect and run on Prisma's transaction); reads are Prisma calls.
 */
export interface CheckpointLog {
  /** Stores checkpoints, replacing those with the same key. */
  putCheckpoints(tx: Tx, rows: readonly CheckpointData[]): Promise<void>;
  /**
   * Stores pending writes with LangGraph's rule: a stored write with `idx >= 0` is kept (a re-run task writes
   * nothing twice), a special one (`idx < 0`) is replaced.
   */
  putWrites(tx: Tx, rows: readonly CheckpointWrite[]): Promise<void>;
  /** Deletes the threads' checkpoints and pending writes. */
  deleteThreads(tx: Tx, threadIds: readonly string[]): Promise<void>;
  /**
   * The latest checkpoint of a thread's namespace (or the one with `checkpointId`) as committed, outside any write
   * transaction (a run resuming reads where its last settle left it); null when there is none.
   */
  latest(threadId: string, namespace: string, checkpointId?: string): Promise<CheckpointData | null>;
  /** A checkpoint's pending writes as committed, outside any write transaction. */
  writesOf(threadId: string, namespace: string, checkpointId: string): Promise<CheckpointWrite[]>;
}

/** The columns of a checkpoint row, as {@link CheckpointData} has them. */
const CHECKPOINT_COLUMNS = [
  'threadId',
  'namespace',
  'checkpointId',
  'parentCheckpointId',
  'checkpointType',
  'checkpointData',
  'metadataType',
  'metadataData',
] as const satisfies readonly (keyof CheckpointData)[];

/** The columns of a pending write, as {@link CheckpointWrite} has them. */
const WRITE_COLUMNS = [
  'threadId',
  'namespace',
  'checkpointId',
  'taskId',
  'idx',
  'taskPath',
  'channel',
  'valueType',
  'valueData',
] as const satisfies readonly (keyof CheckpointWrite)[];

const selected = <K extends string>(columns: readonly K[]) =>
  Object.fromEntries(columns.map((c) => [c, true])) as Record<K, true>;

/** The checkpoint log: reads on `read` (the client that sees only commits), writes built with `statements`. */
export function createCheckpointLog(
  read: Pick<ReadDb, 'checkpoint' | 'checkpointWrite'>,
  statements: Statements,
): CheckpointLog {
  return {
    latest: (threadId, namespace, checkpointId) =>
      read.checkpoint.findFirst({
        where: { threadId, namespace, ...(checkpointId ? { checkpointId } : {}) },
        orderBy: { checkpointId: 'desc' },
        select: selected(CHECKPOINT_COLUMNS),
      }),
    writesOf: (threadId, namespace, checkpointId) =>
      read.checkpointWrite.findMany({
        where: { threadId, namespace, checkpointId },
        select: selected(WRITE_COLUMNS),
      }),
    async putCheckpoints(tx, rows) {
      const createdAt = new Date();
      for (const slice of slices(rows)) {
        await execute(
          tx,
          statements
            .insertInto('Checkpoint')
            .values(slice.map((row) => ({ ...row, createdAt })))
            .onConflict((conflict) =>
              conflict.columns(['threadId', 'namespace', 'checkpointId']).doUpdateSet((eb) => ({
                parentCheckpointId: eb.ref('excluded.parentCheckpointId'),
                checkpointType: eb.ref('excluded.checkpointType'),
                checkpointData: eb.ref('excluded.checkpointData'),
                metadataType: eb.ref('excluded.metadataType'),
                metadataData: eb.ref('excluded.metadataData'),
              })),
            ),
        );
      }
    },
    async putWrites(tx, rows) {
      // A write of a task (idx >= 0) is kept when stored; a special one (idx < 0) replaces the stored one.
      const key = ['threadId', 'namespace', 'checkpointId', 'taskId', 'idx'] as const;
      for (const keep of [true, false]) {
        for (const slice of slices(rows.filter((row) => row.idx >= 0 === keep))) {
          const insert = statements.insertInto('CheckpointWrite').values([...slice]);
          await execute(
            tx,
            insert.onConflict((conflict) =>
              keep
                ? conflict.columns([...key]).doNothing()
                : conflict.columns([...key]).doUpdateSet((eb) => ({
                    taskPath: eb.ref('excluded.taskPath'),
                    channel: eb.ref('excluded.channel'),
                    valueType: eb.ref('excluded.valueType'),
                    valueData: eb.ref('excluded.valueData'),
                  })),
            ),
          );
        }
      }
    },
    async deleteThreads(tx, threadIds) {
      for (const slice of slices(threadIds)) {
        await execute(tx, statements.deleteFrom('CheckpointWrite').where('threadId', 'in', [...slice]));
        await execute(tx, statements.deleteFrom('Checkpoint').where('threadId', 'in', [...slice]));
      }
    },
  };
}
