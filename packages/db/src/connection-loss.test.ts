import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from './database.ts';
import { createTestDatabase, postgresTestUrl, testProviders } from './test-database.ts';

const providers = await testProviders();

describe.runIf(providers.includes('postgresql'))('a PostgreSQL database whose server ends its connections', () => {
  it('should log the lost connections and go on serving from new ones, instead of ending the process', async () => {
    const testDb = await createTestDatabase('postgresql');
    const logged: string[] = [];
    const db = await openDatabase({ url: testDb.url, poolSize: 3, log: (line) => logged.push(line) });
    try {
      // Several idle connections in the pool.
      await Promise.all([1, 2, 3].map(() => db.read.user.count()));
      const admin = new pg.Client({ connectionString: postgresTestUrl });
      await admin.connect();
      const ended = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [new URL(testDb.url).pathname.slice(1)],
      );
      await admin.end();
      expect(ended.rowCount).toBeGreaterThan(0);
      // Every ended connection is noticed (the pool drops it) before the next query: one not noticed yet could be
      // handed out and fail with 57P01, which is the server's doing, not the pool's.
      await vi.waitFor(() =>
        expect(
          logged.filter((line) => line.includes('PostgreSQL connection was closed')).length,
        ).toBeGreaterThanOrEqual(ended.rowCount ?? 1),
      );
      expect(await db.read.user.count()).toBe(0);
    } finally {
      await db.close();
      await testDb.drop();
    }
  });
});
