/** Test helpers: throw-away databases of either kind. Not for production code. */
export {
  createTestDatabase,
  postgresReachable,
  postgresTestUrl,
  type TestDatabase,
  logicProviders,
  testProviders,
} from './test-database.ts';
export { type TestDatabaseHandle, useTestDatabase } from './use-test-database.ts';
