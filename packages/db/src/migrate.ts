import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { migrationsDir } from './paths.ts';
import type { Provider } from './url.ts';

/** A migration directory under `prisma/migrations/<provider>/`. */
export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** Lists the migrations shipped for a provider, oldest first. */
export function listMigrations(provider: Provider): MigrationFile[] {
  const dir = join(migrationsDir, provider);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`;

const PG_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  id VARCHAR(36) PRIMARY KEY NOT NULL, checksum VARCHAR(64) NOT NULL, finished_at TIMESTAMPTZ,
  migration_name VARCHAR(255) NOT NULL, logs TEXT, rolled_back_at TIMESTAMPTZ,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(), applied_steps_count INTEGER NOT NULL DEFAULT 0)`;

/** Prisma's own advisory lock id, so a concurrent `prisma migrate deploy` waits for us and we for it. */
const PG_LOCK_ID = 72707369;

/**
 * Applies the unapplied migrations to a SQLite database, recording them in `_prisma_migrations` exactly as
 * `prisma migrate deploy` does, so either tool can take over. Returns the names applied.
 */
export function migrateSqlite(db: BetterSqlite3.Database): string[] {
  db.exec(SQLITE_TABLE);
  const done = new Set(
    db
      .prepare<[], { migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      )
      .all()
      .map((row) => row.migration_name),
  );
  const applied: string[] = [];
  for (const migration of listMigrations('sqlite')) {
    if (done.has(migration.name)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES (?, ?, current_timestamp, ?, current_timestamp, 1)`,
      ).run(randomUUID(), migration.checksum, migration.name);
    })();
    applied.push(migration.name);
  }
  return applied;
}

/** Applies the unapplied migrations to a PostgreSQL database under Prisma's migration lock. */
export async function migratePostgres(client: pg.Client): Promise<string[]> {
  await client.query('SELECT pg_advisory_lock($1)', [PG_LOCK_ID]);
  try {
    await client.query(PG_TABLE);
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const done = new Set(rows.map((row) => row.migration_name));
    const applied: string[] = [];
    for (const migration of listMigrations('postgresql')) {
      if (done.has(migration.name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(migration.name);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PG_LOCK_ID]);
  }
}
