import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node loads its CommonJS entry for the libraries, Vite would pick the
    // ES module entry for our code — two GraphQLError classes. Use Node's choice everywhere.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two files at a time (CI has 2 cores). Every file has its own resources: a uniquely named SQLite file or
    // PostgreSQL database, servers and private Redis servers on ports the system picks, its own event-bus channel
    // on the shared Redis (tests/helpers/redis-channel.ts), notes in folders of its own maps.
    maxWorkers: 2,
    // The files of a worker share its modules instead of importing the whole server again each (most of the suite's
    // time went to imports; see docs/performance.md). Nothing here keeps state in a module between files: no file mocks a module or stubs globals, and every app has its own registry, bus and database.
    isolate: false,
  },
});
