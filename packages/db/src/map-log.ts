import type Sqlite from 'better-sqlite3';
import type { ChangeKind, Map as MapRow } from '../generated/sqlite/client.ts';
import type { Tx } from './database.ts';
import { preparedInTransaction, sqliteTime } from './prepared-statements.ts';
import { sqliteRows } from './sqlite-rows.ts';

/** One event row as the map's log stores it (`appendEvents` in the server builds them). */
export interface EventRow {
  seq: number;
  type: string;
  version: number;
  payload: unknown;
  createdAt: Date;
  actorId?: string | null;
  runId?: string | null;
  step?: string | null;
  changeSeq?: number | null;
  revertsSeq?: number | null;
  changeKind?: ChangeKind | null;
}

/**
 * The statements every command runs, inside its write transaction: the map's row (locked on PostgreSQL), the
 * events it appends with the map's `lastSeq`, and its idempotency receipt. They are the hot path of every
 * change (an agent's processed node runs them some 25 times), so on SQLite they are prepared once and run on
 * the connection of the open transaction without the ORM's per-call cost (a Prisma call costs some 0.3 ms of
 * JavaScript; the same statement prepared, some 0.02 ms). On PostgreSQL they are Prisma calls.
 */
export interface MapLog {
  /** Takes the map row's lock until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite writes are one at a time). */
  lock(tx: Tx, mapId: string): Promise<void>;
  /** Takes the map row's lock (PostgreSQL: `FOR UPDATE`; SQLite writes are already one at a time) and reads it. */
  openMap(tx: Tx, mapId: string): Promise<MapRow | null>;
  /** Moves the map's `lastSeq` (and `updatedAt`) and inserts the events, in the caller's transaction. */
  append(tx: Tx, mapId: string, lastSeq: number, rows: readonly EventRow[]): Promise<void>;
  /** The stored result of a command already run under this idempotency key, if any. */
  receipt(tx: Tx, key: string): Promise<{ result: unknown } | null>;
  /** Stores a command's result under its idempotency key. */
  storeReceipt(tx: Tx, key: string, result: unknown): Promise<void>;
}

/** The map log through Prisma (PostgreSQL, and SQLite before its connection is known). */
export function prismaMapLog(provider: 'sqlite' | 'postgresql'): MapLog {
  const log: MapLog = {
    async lock(tx, mapId) {
      if (provider === 'postgresql') await tx.$queryRaw`SELECT "id" FROM "Map" WHERE "id" = ${mapId} FOR UPDATE`;
    },
    async openMap(tx, mapId) {
      await log.lock(tx, mapId);
      return tx.map.findUnique({ where: { id: mapId } });
    },
    async append(tx, mapId, lastSeq, rows) {
      await tx.map.updateMany({ where: { id: mapId }, data: { lastSeq } });
      await tx.event.createMany({
        data: rows.map((row) => ({ ...row, mapId, payload: row.payload as object })),
      });
    },
    async receipt(tx, key) {
      return tx.commandReceipt.findUnique({ where: { key }, select: { result: true } });
    },
    async storeReceipt(tx, key, result) {
      await tx.commandReceipt.create({ data: { key, result: JSON.parse(JSON.stringify(result ?? null)) } });
    },
  };
  return log;
}

/**
 * The map log on SQLite, on `connection()`: the better-sqlite3 connection Prisma's adapter opened, where the
 * write queue's transaction is open. Each call checks that a transaction is open on it, so nothing here can
 * write outside the queue's transaction.
 */
export function sqliteMapLog(connection: () => Sqlite.Database | undefined, fallback: MapLog): MapLog {
  const statements = preparedInTransaction(
    connection,
    (db) => ({
      map: db.prepare<[string]>('SELECT * FROM "Map" WHERE "id" = ?'),
      asMap: sqliteRows(db)<MapRow>('Map'),
      bump: db.prepare<[number, string, string]>('UPDATE "Map" SET "lastSeq" = ?, "updatedAt" = ? WHERE "id" = ?'),
      event: db.prepare(
        'INSERT INTO "Event" ("mapId", "seq", "type", "payload", "createdAt", "version", "actorId", "runId", "step", ' +
          '"changeSeq", "revertsSeq", "changeKind") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      receipt: db.prepare<[string], { result: string }>('SELECT "result" FROM "CommandReceipt" WHERE "key" = ?'),
      storeReceipt: db.prepare<[string, string, string]>(
        'INSERT INTO "CommandReceipt" ("key", "result", "createdAt") VALUES (?, ?, ?)',
      ),
    }),
    'the map log',
  );
  return {
    lock: fallback.lock,
    async openMap(tx, mapId) {
      const s = statements();
      if (!s) return fallback.openMap(tx, mapId);
      const row = s.map.get(mapId);
      return row === undefined ? null : s.asMap(row);
    },
    async append(tx, mapId, lastSeq, rows) {
      const s = statements();
      if (!s) return fallback.append(tx, mapId, lastSeq, rows);
      s.bump.run(lastSeq, sqliteTime(new Date()), mapId);
      for (const row of rows)
        s.event.run(
          mapId,
          row.seq,
          row.type,
          JSON.stringify(row.payload),
          sqliteTime(row.createdAt),
          row.version,
          row.actorId ?? null,
          row.runId ?? null,
          row.step ?? null,
          row.changeSeq ?? null,
          row.revertsSeq ?? null,
          row.changeKind ?? null,
        );
    },
    async receipt(tx, key) {
      const s = statements();
      if (!s) return fallback.receipt(tx, key);
      const row = s.receipt.get(key);
      return row ? { result: JSON.parse(row.result) } : null;
    },
    async storeReceipt(tx, key, result) {
      const s = statements();
      if (!s) return fallback.storeReceipt(tx, key, result);
      s.storeReceipt.run(key, JSON.stringify(result ?? null), sqliteTime(new Date()));
    },
  };
}
