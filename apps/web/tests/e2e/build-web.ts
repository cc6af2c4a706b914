import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumAvailable } from './helpers/chromium.ts';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds the web app (adapter-node) before the browser tests, so they drive what the server will serve. */
export default function setup(): void {
  if (!chromiumAvailable() || process.env.TM_E2E_SKIP_BUILD) return;
  const started = Date.now();
  // Without vitest's variables: vite.config.ts resolves for the unit tests when VITEST is set (graphql's CommonJS
  // entry, which cannot be tree-shaken), and that build's bundle is larger than the one users get.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
  );
  execFileSync(process.execPath, [join(webDir, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: webDir,
    env,
    stdio: 'inherit',
  });
  console.log(`[web e2e] built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
