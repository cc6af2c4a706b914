import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cacheStatements } from './statement-cache.ts';

/** Runs a query the way Prisma's better-sqlite3 adapter does: prepare, bind all arguments, then read or run. */
function asTheAdapter(db: Sqlite.Database, sql: string, args: unknown[]) {
  const statement = db.prepare(sql).bind(args);
  if (!statement.reader) return statement.run();
  return { columns: statement.columns().map((c) => c.name), rows: statement.raw().all() };
}

describe('the statement cache of the adapter’s connection', () => {
  it('should answer each call with its own arguments while preparing each SQL text once', () => {
    const raw = new Sqlite(':memory:');
    raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    const db = cacheStatements(raw);
    let prepared = 0;
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((sql: string) => {
      prepared++;
      return prepare(sql);
    }) as typeof raw.prepare;
    db.prepare('BEGIN').run();
    for (const [id, name] of [
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ] as const)
      asTheAdapter(db, 'INSERT INTO t (id, name) VALUES (?, ?)', [id, name]);
    db.prepare('COMMIT').run();
    expect(asTheAdapter(db, 'SELECT id, name FROM t WHERE id >= ? ORDER BY id', [2])).toEqual({
      columns: ['id', 'name'],
      rows: [
        [2, 'b'],
        [3, 'c'],
      ],
    });
    expect(asTheAdapter(db, 'SELECT id, name FROM t WHERE id >= ? ORDER BY id', [3])).toEqual({
      columns: ['id', 'name'],
      rows: [[3, 'c']],
    });
    // BEGIN, COMMIT, the insert and the select: four texts, each prepared once.
    expect(prepared).toBe(4);
    expect(db.inTransaction).toBe(false);
    raw.close();
  });
});
