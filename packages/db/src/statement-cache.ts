import type Sqlite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/** Distinct SQL texts kept prepared (Prisma's statements differ by model, shape and `IN (…)` list length). */
const MAX_STATEMENTS = 500;

/** A statement prepared once: `bind` gives a {@link BoundView}; `run` with arguments runs it (`BEGIN`). */
class CachedStatement {
  #columns: Sqlite.ColumnDefinition[] | undefined;

  constructor(readonly statement: Sqlite.Statement) {}

  /** The result columns, asked of SQLite once (it computes them on every call). */
  columns(): Sqlite.ColumnDefinition[] {
    this.#columns ??= this.statement.columns();
    return this.#columns;
  }

  bind(...args: unknown[]): BoundView {
    // The adapter binds one array of arguments; better-sqlite3 spreads an array the same way.
    return new BoundView(this, args.length === 1 && Array.isArray(args[0]) ? args[0] : args);
  }

  run(...args: unknown[]) {
    return this.statement.run(...args);
  }
}

/**
 * A prepared statement as Prisma's better-sqlite3 adapter uses one: bound once (`bind(args)`), then run, or
 * read (`reader`, `columns()`, `raw().all()`). The adapter prepares each query anew; this view runs a statement
 * prepared once with this call's arguments.
 */
class BoundView {
  constructor(
    private readonly cached: CachedStatement,
    private readonly args: unknown[],
  ) {}

  get reader(): boolean {
    return this.cached.statement.reader;
  }

  columns() {
    return this.cached.columns();
  }

  run() {
    return this.cached.statement.run(...this.args);
  }

  raw() {
    const statement = this.cached.statement.raw(true);
    return { all: () => statement.all(...this.args) };
  }
}

/**
 * The connection Prisma's better-sqlite3 adapter runs its queries on, with each SQL text prepared once: the
 * adapter prepares every statement again on every call (SQLite parses and plans it each time), which measured
 * some 6% of a processed node's CPU time. Everything else is the connection itself (its prototype).
 */
export function cacheStatements(client: Sqlite.Database): Sqlite.Database {
  const cache = new LRUCache<string, CachedStatement>({ max: MAX_STATEMENTS });
  const cached = Object.create(client) as Sqlite.Database;
  Object.defineProperty(cached, 'prepare', {
    value: (sql: string) => {
      let statement = cache.get(sql);
      if (!statement) {
        statement = new CachedStatement(client.prepare(sql));
        cache.set(sql, statement);
      }
      return statement;
    },
  });
  return cached;
}
