import type Sqlite from 'better-sqlite3';
import { fromSqliteTime } from './prepared-statements.ts';

/** Turns one stored value of a column into what Prisma returns for it. */
type Decode = (value: unknown) => unknown;

const asIs: Decode = (value) => value;

/** How a column's stored values are read back, by the type the migrations declared for it (Prisma's SQLite types). */
function decoderOf(declared: string): Decode {
  switch (declared.toUpperCase()) {
    case 'DATETIME':
      return (value) => (value === null ? null : fromSqliteTime(value));
    case 'JSONB':
      return (value) => (value === null ? null : JSON.parse(String(value)));
    case 'BOOLEAN':
      return (value) => (value === null ? null : value === 1 || value === 1n);
    case 'INTEGER':
    case 'REAL':
      return (value) => (typeof value === 'bigint' ? Number(value) : value);
    default:
      return asIs;
  }
}

/**
 * Rows of a table read by a statement of one's own (`SELECT *`, `RETURNING *`), given back as Prisma returns them:
 * each column decoded by the type the migrations declared for it (times as `Date`, JSON parsed, booleans, numbers).
 * The columns are read from the table itself (`PRAGMA table_info`) once per table, so a column added by a migration
 * is decoded without another edit; a test compares every decoded table with Prisma's own read of the same rows.
 */
export function sqliteRows(connection: Sqlite.Database): <T>(table: string) => (row: unknown) => T {
  const decoders = new Map<string, (row: unknown) => unknown>();
  return <T>(table: string) => {
    let decode = decoders.get(table);
    if (!decode) {
      const columns = connection
        .prepare<[string], { name: string; type: string }>('SELECT "name", "type" FROM pragma_table_info(?)')
        .all(table)
        .map((c) => [c.name, decoderOf(c.type)] as const);
      if (columns.length === 0) throw new Error(`no table ${table}`);
      decode = (row) => {
        const raw = row as Record<string, unknown>;
        const decoded: Record<string, unknown> = {};
        for (const [name, read] of columns) decoded[name] = read(raw[name]);
        return decoded;
      };
      decoders.set(table, decode);
    }
    return decode as (row: unknown) => T;
  };
}
