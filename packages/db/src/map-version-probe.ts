import Sqlite from 'better-sqlite3';
import type pg from 'pg';
import type { Db } from './database.ts';

/**
 * A map row's owner and the columns that change whenever anything readable of the map changes: `lastSeq` (bumped
 * by every change in the change's transaction), `tokensUsed` (the budget ledger, which changes it without an
 * event) and `updatedAt` (as the database stores it, a string: only compared for equality).
 */
export interface MapVersion {
  ownerId: string;
  /** Whether conclusions start by themselves on the map. */
  autoRun: boolean;
  lastSeq: number;
  tokensUsed: number;
  updatedAt: string;
}

/** The lean map-version read of one provider, and how to release what it holds. */
export interface MapVersionProbe {
  read(mapId: string): Promise<MapVersion | null>;
  /** The same read without waiting, where the provider reads synchronously (SQLite); absent elsewhere. */
  readNow?(mapId: string): MapVersion | null;
  close(): Promise<void>;
}

/** Rows kept by the SQLite probe between two commits; past this many it starts over (a map read is microseconds). */
const KEPT_ROWS = 10_000;

/**
 * The probe on SQLite: a prepared statement on a connection of its own to the same file. In WAL mode a reader
 * never waits for the writer and each statement sees everything committed before it started.
 *
 * The rows it read are kept, and served again while `PRAGMA data_version` on its connection is unchanged: SQLite
 * changes that number whenever another connection — Prisma's, which makes every write of this process, or any other
 * process's — commits, and this connection never writes (`query_only`). So a kept row is exactly what the statement
 * would read now, and the probe costs one pragma (a read transaction's start) instead of a row lookup and the row's
 * conversion. Every row is dropped at once on any commit: the number tells that something changed, not what.
 */
export function sqliteProbe(file: string): MapVersionProbe {
  const raw = new Sqlite(file, { timeout: 10_000 });
  raw.pragma('query_only = ON');
  const dataVersion = raw.prepare<[], number>('PRAGMA data_version').pluck(true);
  // Rows as arrays: better-sqlite3 builds them without naming each column (the probe runs on every map read).
  const statement = raw
    .prepare<[string], [string, number, number, string | number, number]>(
      'SELECT "ownerId", "lastSeq", "tokensUsed", "updatedAt", "autoRun" FROM "Map" WHERE "id" = ?',
    )
    .raw(true);
  const kept = new Map<string, MapVersion | null>();
  let keptAt = -1;
  const readNow = (mapId: string): MapVersion | null => {
    const version = dataVersion.get();
    if (version !== keptAt || kept.size >= KEPT_ROWS) {
      kept.clear();
      keptAt = version ?? -1;
    } else {
      const row = kept.get(mapId);
      if (row !== undefined) return row;
    }
    const row = statement.get(mapId);
    // Frozen: one row is handed to every caller until the next commit.
    const read = row
      ? Object.freeze({
          ownerId: row[0],
          lastSeq: row[1],
          tokensUsed: row[2],
          updatedAt: String(row[3]),
          autoRun: row[4] === 1,
        })
      : null;
    kept.set(mapId, read);
    return read;
  };
  return {
    readNow,
    read: async (mapId) => readNow(mapId),
    close: async () => void raw.close(),
  };
}

/** The probe through Prisma, where no second connection can see the same data (an in-memory database). */
export function prismaProbe(prisma: Db): MapVersionProbe {
  return {
    read: async (mapId) => {
      const row = await prisma.map.findUnique({
        where: { id: mapId },
        select: { ownerId: true, lastSeq: true, tokensUsed: true, updatedAt: true, autoRun: true },
      });
      return row ? { ...row, updatedAt: row.updatedAt.toISOString() } : null;
    },
    close: async () => {},
  };
}

/** The probe on PostgreSQL: a named (prepared once per connection) statement on Prisma's own pool. */
export function postgresProbe(pool: pg.Pool): MapVersionProbe {
  return {
    read: async (mapId) => {
      const result = await pool.query<MapVersion>({
        name: 'thinkingmap_map_version_2',
        text: 'SELECT "ownerId", "lastSeq", "tokensUsed", "updatedAt"::text AS "updatedAt", "autoRun" FROM "Map" WHERE "id" = $1',
        values: [mapId],
      });
      return result.rows[0] ?? null;
    },
    close: () => pool.end(),
  };
}
