import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    // apps/server loads build/handler.js and serves it on the API's origin (see apps/server/src/web-handler.ts).
    adapter: adapter({ out: 'build' }),
    // Chunks, preloaded together (modulepreload), so the map's first render does not wait for what only other screens
    // use: the code highlighter, the run view's graph layout and the like load when first needed (dynamic imports,
    // which a single bundle would inline).
    output: { bundleStrategy: 'split' },
  },
};

export default config;
