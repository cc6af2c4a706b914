import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import type Sqlite from 'better-sqlite3';
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

/** Tells whether any connection has committed to the database since it last answered. */
interface CommitWatch {
  changed(): boolean;
  close(): void;
}

/** The WAL-index header: its two copies, which SQLite rewrites at every commit (see {@link walIndexWatch}). */
const WAL_INDEX_HEADER_BYTES = 96;

/**
 * Commits seen in the WAL-index (the `-shm` file of a database in WAL mode), as SQLite's own readers see them: every
 * commit rewrites the index's header (its two 48-byte copies: the transaction counter, the last valid frame, the
 * WAL's salts), and a reader that finds the header byte for byte as it last saw it knows that nothing was committed
 * since (`walIndexTryHdr` in SQLite's wal.c; the format is documented, https://sqlite.org/walformat.html, and shared by
 * every SQLite version that opens the file). One `pread` of 96 bytes, where `PRAGMA data_version` costs a read
 * transaction (shared-memory locks, two `fcntl` calls, a `fstat`). A header read while a commit rewrites it differs
 * from the last one: it counts as a change, the safe side. The file stays while `connection` is open (SQLite removes
 * it only when the last connection to the database closes). Null when there is no such file (not in WAL mode).
 */
function walIndexWatch(connection: Sqlite.Database, file: string): CommitWatch | null {
  // A read creates the WAL-index when this is the first connection to open the database.
  connection.prepare('SELECT 1').get();
  let fd: number;
  try {
    // Next to the database file itself, as SQLite puts it (it follows symbolic links).
    fd = openSync(`${realpathSync(file)}-shm`, 'r');
  } catch {
    return null;
  }
  const seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  const now = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  // A live WAL-index starts with its format's version, 3007000, in the machine's byte order.
  if (readSync(fd, now, 0, WAL_INDEX_HEADER_BYTES, 0) !== WAL_INDEX_HEADER_BYTES || now.readUInt32LE(0) !== 3007000) {
    closeSync(fd);
    return null;
  }
  let read = false;
  return {
    changed() {
      const length = readSync(fd, now, 0, WAL_INDEX_HEADER_BYTES, 0);
      if (read && length === WAL_INDEX_HEADER_BYTES && now.equals(seen)) return false;
      now.copy(seen);
      read = length === WAL_INDEX_HEADER_BYTES;
      return true;
    },
    close: () => closeSync(fd),
  };
}

/**
 * Commits seen through `PRAGMA data_version` on `connection`: SQLite changes the number whenever another connection
 * commits. For a database that has no WAL-index (see {@link walIndexWatch}).
 */
function dataVersionWatch(connection: Sqlite.Database): CommitWatch {
  const dataVersion = connection.prepare<[], number>('PRAGMA data_version').pluck(true);
  let seen: number | undefined;
  return {
    changed() {
      const version = dataVersion.get();
      if (version === seen) return false;
      seen = version;
      return true;
    },
    close() {},
  };
}

/**
 * The probe on SQLite: a prepared statement on `raw`, a read-only connection (`query_only`) of its own to the same
 * file, shared with other reads that never write. In WAL mode a reader never waits for the writer and each statement
 * sees everything committed before it started.
 *
 * The rows it read are kept, and served again while no connection has committed since: not Prisma's, which makes
 * every write of this process, nor any other process's; `raw` never writes. Commits are
 * seen in the WAL-index header ({@link walIndexWatch}), else through `PRAGMA data_version`, checked on every read
 * before anything kept is served: a kept row is exactly what the statement would read now. Every row is dropped at
 * once on any commit: the check tells that something changed, not what.
 */
export function sqliteProbe(raw: Sqlite.Database, file: string): MapVersionProbe {
  const commits = walIndexWatch(raw, file) ?? dataVersionWatch(raw);
  // Rows as arrays: better-sqlite3 builds them without naming each column (the probe runs on every map read).
  const statement = raw
    .prepare<[string], [string, number, number, string | number, number]>(
      'SELECT "ownerId", "lastSeq", "tokensUsed", "updatedAt", "autoRun" FROM "Map" WHERE "id" = ?',
    )
    .raw(true);
  const kept = new Map<string, MapVersion | null>();
  const readNow = (mapId: string): MapVersion | null => {
    // Checked before the read: a commit after the check is seen by the read, and by the next check.
    if (commits.changed() || kept.size >= KEPT_ROWS) {
      kept.clear();
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
    close: async () => {
      commits.close();
      raw.close();
    },
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
