import type Sqlite from 'better-sqlite3';

/** A DateTime as Prisma's SQLite adapter stores it (ISO 8601 with an explicit offset). */
export const sqliteTime = (date: Date) => date.toISOString().replace('Z', '+00:00');

/** A stored DateTime read back: ISO text (with or without an offset: without one it is UTC) or epoch ms. */
export function fromSqliteTime(value: unknown): Date {
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

/**
 * Statements prepared once on `connection()`: the better-sqlite3 connection Prisma's adapter opened, where the
 * write queue's transaction is open. Returns them, prepared again when the connection changed, or null while
 * the connection is not known yet (the caller takes its Prisma path). Throws when no transaction is open on
 * it, so nothing prepared here can write outside the queue's transaction.
 */
export function preparedInTransaction<S>(
  connection: () => Sqlite.Database | undefined,
  prepare: (db: Sqlite.Database) => S,
  /** What the statements are, for the error. */
  what: string,
): () => S | null {
  let prepared: S | undefined;
  let preparedOn: Sqlite.Database | undefined;
  return () => {
    const db = connection();
    if (!db) return null;
    if (!db.inTransaction) throw new Error(`${what} runs only inside a write transaction`);
    if (preparedOn !== db) {
      prepared = prepare(db);
      preparedOn = db;
    }
    return prepared!;
  };
}
