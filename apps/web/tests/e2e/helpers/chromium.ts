import { existsSync } from 'node:fs';

/** Debian's Chromium (`apt-get install -y chromium`); Playwright cannot download browsers here. */
export const CHROMIUM_PATH = process.env.TM_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launch flags that work on the build machines (see /work/shared/ENVIRONMENT.md). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the browser tests can run: yes when Chromium is installed. Without it they are skipped with a
 * message, except in CI (`CI` set), where a missing browser is an error rather than a silent pass.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI) {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; CI must install it (apt-get install -y chromium).`);
  }
  console.warn(
    `\n[web e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH}. Install it with \`apt-get update && apt-get install -y chromium\` (as root) to run the browser tests.\n`,
  );
  return false;
}
