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

/**
 * Runs a compiled statement that returns rows (`RETURNING`) on the write transaction. Only for columns Prisma's raw
 * query gives back as they are stored (numbers, strings): rows of models are read through Prisma's client.
 */
export function query<Row>(tx: Tx, statement: Compilable<Row>): Promise<Row[]> {
  const { sql, parameters } = statement.compile();
  return tx.$queryRawUnsafe<Row[]>(sql, ...parameters);
}

/** Rows per statement: well under both databases' limits on bound parameters (SQLite's is 32,766). */
const ROWS_PER_STATEMENT = 500;

/** `rows` in slices of {@link ROWS_PER_STATEMENT}, for multi-row statements. */
export function* slices<T>(rows: readonly T[]): Generator<readonly T[]> {
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) yield rows.slice(at, at + ROWS_PER_STATEMENT);
}
