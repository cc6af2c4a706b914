import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from './migrate.ts';
import { createTestDatabase, type TestDatabase, testProviders } from './test-database.ts';

const MIGRATION = '20261123122833_map_language_enum';
const postgres = (await testProviders()).includes('postgresql');

describe.skipIf(!postgres)('the migration that makes Map.language an enum, on PostgreSQL', () => {
  let testDb: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgresql', { empty: true });
    client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await testDb?.drop();
  });

  it("should keep every existing map's language, reading anything but zh as en", async () => {
    const migrations = listMigrations('postgresql');
    const at = migrations.findIndex((m) => m.name === MIGRATION);
    expect(at).toBeGreaterThan(0);
    for (const migration of migrations.slice(0, at)) await client.query(migration.sql);
    await client.query(`INSERT INTO "User" (id, name) VALUES ('u1', 'Ann')`);
    for (const [id, language] of [
      ['m-zh', 'zh'],
      ['m-en', 'en'],
      ['m-odd', 'fr'],
    ])
      await client.query(
        `INSERT INTO "Map" (id, "ownerId", title, constraints, language, "updatedAt") VALUES ($1, 'u1', 't', '[]', $2, now())`,
        [id, language],
      );

    await client.query(migrations[at]!.sql);

    const { rows } = await client.query<{ id: string; language: string }>(
      `SELECT id, language::text AS language FROM "Map" ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'm-en', language: 'en' },
      { id: 'm-odd', language: 'en' },
      { id: 'm-zh', language: 'zh' },
    ]);
    await client.query(
      `INSERT INTO "Map" (id, "ownerId", title, constraints, "updatedAt") VALUES ('m-new', 'u1', 't', '[]', now())`,
    );
    const fresh = await client.query(`SELECT language::text AS language FROM "Map" WHERE id = 'm-new'`);
    expect(fresh.rows[0]).toEqual({ language: 'en' });
    await expect(client.query(`UPDATE "Map" SET language = 'fr' WHERE id = 'm-zh'`)).rejects.toThrow(
      /invalid input value for enum "Language"/,
    );
  });
});
