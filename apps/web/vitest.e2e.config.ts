import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** End-to-end tests: a real server in-process with the built web handler, driven by Debian's Chromium. */
export default defineConfig({
  resolve: {
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    globalSetup: ['tests/e2e/build-web.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time (CI has 2 cores): each file starts its own server (random port, its own SQLite file and
    // notes folder, its own scripted model server) and its own Chromium, so files share nothing but the build.
    maxWorkers: 2,
    // expect.poll waits 1 s by default: too short for a browser on a loaded 2-core CI machine.
    expect: { poll: { timeout: 10_000, interval: 50 } },
  },
});
