import {
  type Compilable,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { DB } from '../generated/kysely-types.ts';
import type { Tx } from './database.ts';
import type { Provider } from './url.ts';

/** A query builder typed from `schema.prisma` (the `prisma-kysely` generator), for statements Prisma's API cannot batch. */
export type Statements = Kysely<DB>;

/**
 * Kysely as a query builder only: it compiles each statement for the database's dialect, and {@link execute} runs it on
 * Prisma's transaction, so the statement shares Prisma's connection and transaction and nothing else connects.
 */
export function statementsFor(provider: Provider): Statements {
  const postgres = provider === 'postgresql';
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
}

/** Runs a compiled statement that returns no rows on the write transaction; resolves to the rows it changed. */
export function execute(tx: Tx, statement: Compilable): Promise<number> {
  const { sql, parameters } = statement.compile();
  return tx.$executeRawUnsafe(sql, ...parameters);
}
