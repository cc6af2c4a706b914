import { createRequire } from 'node:module';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  plugins: [sveltekit()],
  server: {
    // `vite dev` talks to a server started with `pnpm start` (port 4000), subscriptions included. The server only
    // answers its own origin, so the proxied requests carry the server's origin instead of Vite's.
    proxy: {
      '/graphql': {
        target: 'http://127.0.0.1:4000',
        ws: true,
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => request.setHeader('origin', 'http://127.0.0.1:4000'));
          proxy.on('proxyReqWs', (request) => request.setHeader('origin', 'http://127.0.0.1:4000'));
        },
      },
    },
  },
  resolve: process.env.VITEST
    ? {
        // Components mount in jsdom with Svelte's browser build; graphql resolves to one copy (see apps/server).
        conditions: ['browser'],
        alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
      }
    : undefined,
  test: {
    include: ['src/**/*.test.ts'],
    // Most files test plain modules: a DOM costs each file a second or more to set up, so only the files that
    // mount components ask for jsdom (`// @vitest-environment jsdom` on their first line).
    environment: 'node',
  },
});
