import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

/** Where screenshots go (git-ignored). */
export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../test-results/screenshots');

/** Launches Debian's Chromium headless. */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh browser context (its own storage, like another window of another person) with one page. */
export async function openPage(browser: Browser, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale, viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[page console] ${message.text()}`);
  });
  return { context, page };
}

/** Saves a screenshot of the page as `name`.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/** The tree card of the node whose question is `question`. */
export function card(page: Page, question: string) {
  return page.locator(`[data-node-id][aria-label^="${question.replace(/"/g, '\\"')} —"]`);
}
