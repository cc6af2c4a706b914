/** Test helpers: throw-away databases of either kind. Not for production code. */
export {
  createTestDatabase,
  logicProviders,
  postgresReachable,
  postgresTestUrl,
  type TestDatabase,
  testProviders,
} from './test-database.ts';
export { type TestDatabaseHandle, useTestDatabase } from './use-test-database.ts';
