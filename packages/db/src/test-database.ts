import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { type Database, openDatabase } from './database.ts';
import { listMigrations, migratePostgres, migrateSqlite } from './migrate.ts';
import type { Provider } from './url.ts';

/** A throw-away database for one test file, removed by `drop()`. */
export interface TestDatabase {
  url: string;
  provider: Provider;
  /** Opens a (further) client on this database. */
  open(): Promise<Database>;
  /** Deletes the database. */
  drop(): Promise<void>;
}

/** The PostgreSQL server used by tests: TEST_DATABASE_URL, or the local server CI starts. */
export const postgresTestUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Whether the test PostgreSQL server answers. */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresTestUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    // Any failure to connect means the same here: no PostgreSQL tests (or, in CI, a clear error).
    return false;
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * The name of the migrated template of a provider: it changes with the migrations shipped, so a test run never
 * clones a template made from other migrations (several checkouts may share one PostgreSQL server).
 */
function templateName(provider: Provider): string {
  const hash = createHash('sha256');
  for (const migration of listMigrations(provider)) hash.update(`${migration.name}:${migration.checksum}\n`);
  return `tm_template_${hash.digest('hex').slice(0, 16)}`;
}

/**
 * A migrated SQLite file to copy: built once per set of migrations (under a temporary name, then renamed, so a
 * concurrent test file never copies a half-built one).
 */
function sqliteTemplate(): string {
  const file = join(tmpdir(), `${templateName('sqlite')}.db`);
  if (existsSync(file)) return file;
  const building = `${file}.${randomBytes(4).toString('hex')}.building`;
  const raw = new Sqlite(building);
  try {
    migrateSqlite(raw);
  } finally {
    raw.close();
  }
  renameSync(building, file);
  return file;
}

/** Serialises template creation and cloning among test files (PostgreSQL refuses to copy a template in use). */
const PG_TEMPLATE_LOCK = 72707370;

/**
 * Creates database `name`, empty or as a copy of the migrated template, building the template first when this set of
 * migrations has none yet (copying is a file copy on the server; migrating took most of a test database's set-up).
 */
async function createPostgresDatabase(name: string, migrated: boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresTestUrl });
  await admin.connect();
  try {
    if (!migrated) {
      await admin.query(`CREATE DATABASE "${name}"`);
      return;
    }
    const template = templateName('postgresql');
    await admin.query('SELECT pg_advisory_lock($1)', [PG_TEMPLATE_LOCK]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) await buildPostgresTemplate(admin, template);
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    // Ending the session releases its advisory lock.
    await admin.end();
  }
}

/** Migrates a new database under a temporary name, then gives it the template's name. */
async function buildPostgresTemplate(admin: pg.Client, template: string): Promise<void> {
  const building = `${template}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${building}"`);
  const client = new pg.Client({ connectionString: withDatabase(postgresTestUrl, building) });
  await client.connect();
  try {
    await migratePostgres(client);
  } finally {
    await client.end();
  }
  await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
}

/** Options of {@link createTestDatabase}. */
export interface TestDatabaseOptions {
  /** An empty database instead of a migrated one (for tests of the migrations themselves). */
  empty?: boolean;
}

/**
 * Creates a database of the given kind with a unique name: a copy of the migrated template (built once per set of
 * migrations), or an empty one.
 */
export async function createTestDatabase(provider: Provider, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const name = `tm_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (provider === 'sqlite') {
    const file = join(tmpdir(), `${name}.db`);
    if (!options.empty) copyFileSync(sqliteTemplate(), file);
    return {
      url: `file:${file}`,
      provider,
      open: () => openDatabase({ url: `file:${file}` }),
      async drop() {
        for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  await createPostgresDatabase(name, !options.empty);
  const url = withDatabase(postgresTestUrl, name);
  return {
    url,
    provider,
    open: () => openDatabase({ url, poolSize: 5 }),
    async drop() {
      const client = new pg.Client({ connectionString: postgresTestUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The database kinds a test file should run on: always SQLite; PostgreSQL when it answers. In CI an
 * unreachable PostgreSQL is an error, elsewhere the PostgreSQL tests are skipped with a clear message.
 */
export async function testProviders(): Promise<Provider[]> {
  if (await postgresReachable()) return ['sqlite', 'postgresql'];
  if (process.env.CI) throw new Error(`PostgreSQL is required in CI but ${postgresTestUrl} is unreachable`);
  console.warn(`\n  ⚠ SKIPPED: PostgreSQL tests (${postgresTestUrl} unreachable; set TEST_DATABASE_URL)\n`);
  return ['sqlite'];
}

/**
 * The database kinds for a test of behaviour the database does not decide (the product's logic over the one data
 * layer): the embedded SQLite only. What the database decides (storage, migrations, locking, concurrent and racing
 * writers, security) is tested on every kind with {@link testProviders}.
 */
export const logicProviders: readonly Provider[] = ['sqlite'];
