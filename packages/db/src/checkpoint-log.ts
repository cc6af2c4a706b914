import type Sqlite from 'better-sqlite3';
import type { Checkpoint, CheckpointWrite } from '../generated/sqlite/client.ts';
import type { Tx } from './database.ts';
import { preparedInTransaction, sqliteTime } from './prepared-statements.ts';

/** A checkpoint row as stored (its `createdAt` is set when it is first stored). */
export type CheckpointData = Omit<Checkpoint, 'createdAt'>;

/**
 * The rows of agent runs' LangGraph checkpoints, written inside the caller's write transaction: every run's
 * settle stores or drops them. On SQLite the statements are prepared once and run on the write transaction's
 * connection (as the map log's are); on PostgreSQL they are Prisma calls.
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

const writeKey = (row: CheckpointWrite) => ({
  threadId: row.threadId,
  namespace: row.namespace,
  checkpointId: row.checkpointId,
  taskId: row.taskId,
  idx: row.idx,
});

/**
 * The checkpoint log through Prisma (PostgreSQL, and SQLite before its connection is known); `read` is the client
 * its reads go through.
 */
export function prismaCheckpointLog(read: Pick<Tx, 'checkpoint' | 'checkpointWrite'>): CheckpointLog {
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
      for (const { threadId, namespace, checkpointId, ...data } of rows) {
        const key = { threadId, namespace, checkpointId };
        await tx.checkpoint.upsert({
          where: { threadId_namespace_checkpointId: key },
          create: { ...key, ...data },
          update: data,
        });
      }
    },
    async putWrites(tx, rows) {
      for (const row of rows) {
        const where = { threadId_namespace_checkpointId_taskId_idx: writeKey(row) };
        if (row.idx >= 0) {
          if (!(await tx.checkpointWrite.findUnique({ where, select: { idx: true } })))
            await tx.checkpointWrite.create({ data: row });
        } else {
          const { taskPath, channel, valueType, valueData } = row;
          await tx.checkpointWrite.upsert({ where, create: row, update: { taskPath, channel, valueType, valueData } });
        }
      }
    },
    async deleteThreads(tx, threadIds) {
      if (threadIds.length === 0) return;
      const threadId = threadIds.length === 1 ? threadIds[0]! : { in: [...threadIds] };
      await tx.checkpointWrite.deleteMany({ where: { threadId } });
      await tx.checkpoint.deleteMany({ where: { threadId } });
    },
  };
}

/** A pending write's insert, up to what it does when the write is already stored. */
const INSERT_WRITE =
  'INSERT INTO "CheckpointWrite" ("threadId", "namespace", "checkpointId", "taskId", "idx", "taskPath", "channel", ' +
  '"valueType", "valueData") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
  'ON CONFLICT ("threadId", "namespace", "checkpointId", "taskId", "idx") DO';

/**
 * The checkpoint log on SQLite: its writes on the write transaction's connection (see `preparedInTransaction`), its
 * reads on `reader`, a read-only connection to the same file (in WAL mode it sees every commit, never waits for the
 * writer, and no read queues behind a write transaction on Prisma's connection); through `fallback` without one.
 */
export function sqliteCheckpointLog(
  connection: () => Sqlite.Database | undefined,
  fallback: CheckpointLog,
  reader?: Sqlite.Database,
): CheckpointLog {
  const columns = (names: readonly string[]) => names.map((c) => `"${c}"`).join(', ');
  const checkpoints = `SELECT ${columns(CHECKPOINT_COLUMNS)} FROM "Checkpoint" WHERE "threadId" = ? AND "namespace" = ?`;
  const reads = reader && {
    latest: reader.prepare<[string, string], CheckpointData>(`${checkpoints} ORDER BY "checkpointId" DESC LIMIT 1`),
    byId: reader.prepare<[string, string, string], CheckpointData>(`${checkpoints} AND "checkpointId" = ?`),
    writesOf: reader.prepare<[string, string, string], CheckpointWrite>(
      `SELECT ${columns(WRITE_COLUMNS)} FROM "CheckpointWrite" ` +
        'WHERE "threadId" = ? AND "namespace" = ? AND "checkpointId" = ?',
    ),
  };
  const statements = preparedInTransaction(
    connection,
    (db) => ({
      putCheckpoint: db.prepare(
        'INSERT INTO "Checkpoint" ("threadId", "namespace", "checkpointId", "parentCheckpointId", "checkpointType", ' +
          '"checkpointData", "metadataType", "metadataData", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT ("threadId", "namespace", "checkpointId") DO UPDATE SET ' +
          '"parentCheckpointId" = excluded."parentCheckpointId", "checkpointType" = excluded."checkpointType", ' +
          '"checkpointData" = excluded."checkpointData", "metadataType" = excluded."metadataType", ' +
          '"metadataData" = excluded."metadataData"',
      ),
      keepWrite: db.prepare(`${INSERT_WRITE} NOTHING`),
      replaceWrite: db.prepare(
        `${INSERT_WRITE} UPDATE SET "taskPath" = excluded."taskPath", "channel" = excluded."channel", ` +
          '"valueType" = excluded."valueType", "valueData" = excluded."valueData"',
      ),
      // Any number of threads in one statement each: their ids as one JSON array.
      deleteWrites: db.prepare<[string]>(
        'DELETE FROM "CheckpointWrite" WHERE "threadId" IN (SELECT "value" FROM json_each(?))',
      ),
      deleteCheckpoints: db.prepare<[string]>(
        'DELETE FROM "Checkpoint" WHERE "threadId" IN (SELECT "value" FROM json_each(?))',
      ),
    }),
    'the checkpoint log',
  );
  return {
    async latest(threadId, namespace, checkpointId) {
      if (!reads) return fallback.latest(threadId, namespace, checkpointId);
      const row = checkpointId
        ? reads.byId.get(threadId, namespace, checkpointId)
        : reads.latest.get(threadId, namespace);
      return row ?? null;
    },
    async writesOf(threadId, namespace, checkpointId) {
      if (!reads) return fallback.writesOf(threadId, namespace, checkpointId);
      return reads.writesOf.all(threadId, namespace, checkpointId);
    },
    async putCheckpoints(tx, rows) {
      const s = statements();
      if (!s) return fallback.putCheckpoints(tx, rows);
      const createdAt = sqliteTime(new Date());
      for (const r of rows)
        s.putCheckpoint.run(
          r.threadId,
          r.namespace,
          r.checkpointId,
          r.parentCheckpointId,
          r.checkpointType,
          r.checkpointData,
          r.metadataType,
          r.metadataData,
          createdAt,
        );
    },
    async putWrites(tx, rows) {
      const s = statements();
      if (!s) return fallback.putWrites(tx, rows);
      for (const r of rows)
        (r.idx >= 0 ? s.keepWrite : s.replaceWrite).run(
          r.threadId,
          r.namespace,
          r.checkpointId,
          r.taskId,
          r.idx,
          r.taskPath,
          r.channel,
          r.valueType,
          r.valueData,
        );
    },
    async deleteThreads(tx, threadIds) {
      const s = statements();
      if (!s) return fallback.deleteThreads(tx, threadIds);
      if (threadIds.length === 0) return;
      const ids = JSON.stringify(threadIds);
      s.deleteWrites.run(ids);
      s.deleteCheckpoints.run(ids);
    },
  };
}
