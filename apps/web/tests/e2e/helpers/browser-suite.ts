import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, screenshotIfFailed } from './browser.ts';
import { startWebServer, type WebServer } from './web-server.ts';

/** The real server (serving the built web app) and the Chromium a suite's tests drive. */
export interface BrowserSuite {
  server: WebServer;
  browser: Browser;
}

/**
 * Sets up a browser suite, called in its `describe`: starts the server and Chromium before its tests, closes both
 * after them, and saves a screenshot (named `<prefix>-<test>`) of the page `page()` returns when a test fails.
 * The returned handles are filled once the suite has started.
 */
export function browserSuite(page: () => Page | undefined, prefix = 'failed'): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    suite.server = await startWebServer();
    suite.browser = await launchBrowser();
  });
  afterEach((context) => screenshotIfFailed(page(), context.task, prefix));
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
