import type { ChangeKind, Map as MapRow } from '../generated/sqlite/client.ts';
import type { Tx } from './database.ts';
import { execute, query, type Statements, slices } from './kysely.ts';
import type { Provider } from './url.ts';

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

/** The map whose log is appended to: its id and its owner, whose feed the events join. */
export interface LoggedMap {
  id: string;
  ownerId: string;
}

/**
 * The statements every command runs inside its write transaction: the map's row and lock, the events it
 * appends, and its idempotency receipt.
 */
export interface MapLog {
  /** Takes the map row's lock until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite writes are one at a time). */
  lock(tx: Tx, mapId: string): Promise<void>;
  /** Takes the map row's lock and reads the row. */
  openMap(tx: Tx, mapId: string): Promise<MapRow | null>;
  /**
   * Inserts the events with the map's `lastSeq` moved to `lastSeq`, and gives them the next positions of the
   * owner's feed (`User.lastFeedSeq`, moved in the same statement that locks the owner's row until commit, so
   * positions are consecutive and committed in order). Returns the first event's feed position.
   */
  append(tx: Tx, map: LoggedMap, lastSeq: number, rows: readonly EventRow[]): Promise<number>;
  /** The stored result of a command already run under this idempotency key, if any. */
  receipt(tx: Tx, key: string): Promise<{ result: unknown } | null>;
  /** Stores a command's result under its idempotency key unless a receipt is stored under it; true when stored. */
  storeReceipt(tx: Tx, key: string, result: unknown): Promise<boolean>;
}

/**
 * The map log, the same statements on both databases. A command's append is three statements whatever its events
 * (the owner's feed position moved and returned, the map's `lastSeq`, one INSERT for all its events) and its receipt
 * one: built with Kysely for the database's dialect and run on Prisma's transaction (see `kysely.ts`). Reads that
 * return rows (the map, a receipt) are Prisma calls.
 */
export function createMapLog(provider: Provider, statements: Statements): MapLog {
  const log: MapLog = {
    async lock(tx, mapId) {
      if (provider === 'postgresql') await tx.$queryRaw`SELECT "id" FROM "Map" WHERE "id" = ${mapId} FOR UPDATE`;
    },
    async openMap(tx, mapId) {
      await log.lock(tx, mapId);
      return tx.map.findUnique({ where: { id: mapId } });
    },
    async append(tx, map, lastSeq, rows) {
      // PostgreSQL's UPDATE locks the owner's row until commit: feed positions are taken in commit order.
      const [owner] = await query<{ lastFeedSeq: number }>(
        tx,
        statements
          .updateTable('User')
          .set((eb) => ({ lastFeedSeq: eb('lastFeedSeq', '+', rows.length) }))
          .where('id', '=', map.ownerId)
          .returning('lastFeedSeq'),
      );
      if (!owner) throw new Error(`the owner ${map.ownerId} of map ${map.id} does not exist`);
      const firstFeedSeq = Number(owner.lastFeedSeq) - rows.length + 1;
      // The map's `updatedAt` is its last event's time: a reader that knows the event knows the row's version.
      const updatedAt = rows.at(-1)?.createdAt ?? new Date();
      await execute(tx, statements.updateTable('Map').set({ lastSeq, updatedAt }).where('id', '=', map.id));
      const events = rows.map((row, i) => ({
        mapId: map.id,
        ownerId: map.ownerId,
        feedSeq: firstFeedSeq + i,
        seq: row.seq,
        type: row.type,
        version: row.version,
        payload: JSON.stringify(row.payload),
        createdAt: row.createdAt,
        actorId: row.actorId ?? null,
        runId: row.runId ?? null,
        step: row.step ?? null,
        changeSeq: row.changeSeq ?? null,
        revertsSeq: row.revertsSeq ?? null,
        changeKind: row.changeKind ?? null,
      }));
      for (const slice of slices(events)) await execute(tx, statements.insertInto('Event').values([...slice]));
      return firstFeedSeq;
    },
    async receipt(tx, key) {
      return tx.commandReceipt.findUnique({ where: { key }, select: { result: true } });
    },
    async storeReceipt(tx, key, result) {
      const stored = await execute(
        tx,
        statements
          .insertInto('CommandReceipt')
          .values({ key, result: JSON.stringify(result ?? null), createdAt: new Date() })
          .onConflict((conflict) => conflict.column('key').doNothing()),
      );
      return stored > 0;
    },
  };
  return log;
}
