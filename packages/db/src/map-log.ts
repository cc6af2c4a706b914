import type { ChangeKind, Map as MapRow } from '../generated/sqlite/client.ts';
import type { Tx } from './database.ts';

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
  /** Stores a command's result under its idempotency key. */
  storeReceipt(tx: Tx, key: string, result: unknown): Promise<void>;
}

/** The map log, the same statements on both databases. */
export function createMapLog(provider: 'sqlite' | 'postgresql'): MapLog {
  const log: MapLog = {
    async lock(tx, mapId) {
      if (provider === 'postgresql') await tx.$queryRaw`SELECT "id" FROM "Map" WHERE "id" = ${mapId} FOR UPDATE`;
    },
    async openMap(tx, mapId) {
      await log.lock(tx, mapId);
      return tx.map.findUnique({ where: { id: mapId } });
    },
    async append(tx, map, lastSeq, rows) {
      const owner = await tx.user.update({
        where: { id: map.ownerId },
        data: { lastFeedSeq: { increment: rows.length } },
        select: { lastFeedSeq: true },
      });
      const firstFeedSeq = owner.lastFeedSeq - rows.length + 1;
      await tx.map.updateMany({ where: { id: map.id }, data: { lastSeq } });
      await tx.event.createMany({
        data: rows.map((row, i) => ({
          ...row,
          mapId: map.id,
          ownerId: map.ownerId,
          feedSeq: firstFeedSeq + i,
          payload: row.payload as object,
        })),
      });
      return firstFeedSeq;
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
