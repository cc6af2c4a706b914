import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from './database.ts';
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

/** Creates an empty database of the given kind with a unique name. */
export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  const name = `tm_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (provider === 'sqlite') {
    const file = join(tmpdir(), `${name}.db`);
    return {
      url: `file:${file}`,
      provider,
      open: () => openDatabase({ url: `file:${file}` }),
      async drop() {
        for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const admin = new pg.Client({ connectionString: postgresTestUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
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
