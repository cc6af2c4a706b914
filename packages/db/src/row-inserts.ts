import type { Insertable } from 'kysely';
import type { DB } from '../generated/kysely-types.ts';
import type { Tx } from './database.ts';
import { execute, type Statements, slices } from './kysely.ts';

/** A table of the data model, by its name in `schema.prisma`. */
export type TableName = keyof DB & string;

/** A row as a multi-row insert takes it: every column without a database default; JSON columns as JSON text. */
export type InsertRow<T extends TableName> = Insertable<DB[T]>;

/**
 * Multi-row inserts for a command that writes many rows of one table at once (a batch of nodes, an imported map):
 * one statement per 500 rows, built with Kysely for the database's dialect and run on Prisma's transaction, where
 * Prisma's `createMany` takes seconds for a few thousand rows. The caller gives every id (so rows can refer to
 * each other) and `updatedAt`, which Prisma's client, not the database, fills in.
 */
export interface RowInserts {
  insert<T extends TableName>(tx: Tx, table: T, rows: readonly InsertRow<T>[]): Promise<void>;
}

/** The multi-row inserts on `statements`' dialect. */
export function createRowInserts(statements: Statements): RowInserts {
  return {
    async insert(tx, table, rows) {
      for (const slice of slices(rows)) await execute(tx, statements.insertInto(table).values([...slice]));
    },
  };
}
