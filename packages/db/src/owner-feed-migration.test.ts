import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from './migrate.ts';
import { createTestDatabase, type TestDatabase, testProviders } from './test-database.ts';
import type { Provider } from './url.ts';

const MIGRATION = '_owner_feed';

/** Runs SQL on a bare connection of the test database (no Prisma: the schema is half-way through its history). */
interface Bare {
  run(sql: string): Promise<void>;
  rows<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

async function bare(provider: Provider, testDb: TestDatabase): Promise<Bare> {
  if (provider === 'sqlite') {
    const db = new Sqlite(testDb.url.slice('file:'.length));
    return {
      run: async (sql) => void db.exec(sql),
      rows: async <T>(sql: string) => db.prepare(sql).all() as T[],
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
  return {
    run: async (sql) => void (await client.query(sql)),
    rows: async <T>(sql: string) => (await client.query(sql)).rows as T[],
    close: () => client.end(),
  };
}

describe.each(await testProviders())('the migration that gives each owner one feed, on %s', (provider) => {
  let testDb: TestDatabase;
  let db: Bare;

  beforeAll(async () => {
    testDb = await createTestDatabase(provider, { empty: true });
    db = await bare(provider, testDb);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it("should number every stored event in its owner's feed, keeping each map's order, deleted maps included", async () => {
    const migrations = listMigrations(provider);
    const at = migrations.findIndex((m) => m.name.endsWith(MIGRATION));
    expect(at).toBeGreaterThan(0);
    for (const migration of migrations.slice(0, at)) await db.run(migration.sql);
    const now = provider === 'sqlite' ? `'2026-01-01T00:00:00.000+00:00'` : 'now()';
    await db.run(`INSERT INTO "User" (id, name) VALUES ('ann', 'Ann'), ('bob', 'Bob'), ('cy', 'Cy')`);
    await db.run(
      `INSERT INTO "Map" (id, "ownerId", title, constraints, "updatedAt") VALUES ` +
        `('a1', 'ann', 't', '[]', ${now}), ('a2', 'ann', 't', '[]', ${now}), ('b1', 'bob', 't', '[]', ${now})`,
    );
    // Events in the order they were stored; 'gone' is a map Ann deleted (its row is gone, its log is kept), 'lost' a
    // deleted map whose events never said who made them.
    const stored: [string, number, string | null][] = [
      ['a1', 1, null],
      ['b1', 1, 'bob'],
      ['gone', 1, 'ann'],
      ['a2', 1, 'ann'],
      ['a1', 2, 'ann'],
      ['lost', 1, null],
      ['gone', 2, 'ann'],
    ];
    for (const [mapId, seq, actorId] of stored) {
      await db.run(
        `INSERT INTO "Event" ("mapId", seq, type, payload, "createdAt", "actorId") VALUES ` +
          `('${mapId}', ${seq}, 'NodeCreated', '{}', ${now}, ${actorId ? `'${actorId}'` : 'NULL'})`,
      );
    }

    await db.run(migrations[at]!.sql);

    const events = await db.rows<{ mapId: string; seq: number; ownerId: string | null; feedSeq: number | null }>(
      `SELECT "mapId", seq, "ownerId", "feedSeq" FROM "Event" ORDER BY id`,
    );
    expect(
      events.map((e) => [e.mapId, Number(e.seq), e.ownerId, e.feedSeq === null ? null : Number(e.feedSeq)]),
    ).toEqual([
      ['a1', 1, 'ann', 1],
      ['b1', 1, 'bob', 1],
      ['gone', 1, 'ann', 2],
      ['a2', 1, 'ann', 3],
      ['a1', 2, 'ann', 4],
      ['lost', 1, null, null],
      ['gone', 2, 'ann', 5],
    ]);
    const users = await db.rows<{ id: string; lastFeedSeq: number }>(
      `SELECT id, "lastFeedSeq" FROM "User" ORDER BY id`,
    );
    expect(users.map((u) => [u.id, Number(u.lastFeedSeq)])).toEqual([
      ['ann', 5],
      ['bob', 1],
      ['cy', 0],
    ]);
  });
});
