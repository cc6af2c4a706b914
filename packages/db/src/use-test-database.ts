import { afterAll, beforeAll } from 'vitest';
import type { Database } from './database.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from './test-database.ts';
import type { Provider } from './url.ts';

/** The database of one `describe` block; read its fields inside tests (they are set before the first). */
export interface TestDatabaseHandle {
  /** The throw-away database (open more clients on it with `testDb.open()`). */
  testDb: TestDatabase;
  /** A client on it. */
  db: Database;
}

/**
 * Creates a throw-away database of `provider` before the tests of the calling `describe` block and drops it
 * after them, so test files do not repeat the set-up and tear-down.
 */
export function useTestDatabase(provider: Provider, options: TestDatabaseOptions = {}): TestDatabaseHandle {
  const handle = {} as TestDatabaseHandle;
  beforeAll(async () => {
    handle.testDb = await createTestDatabase(provider, options);
    handle.db = await handle.testDb.open();
  });
  afterAll(async () => {
    await handle.db?.close();
    await handle.testDb?.drop();
  });
  return handle;
}
