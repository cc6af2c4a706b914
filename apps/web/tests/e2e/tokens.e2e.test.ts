import { CREATE_API_TOKEN } from '@thinkingmap/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { launchBrowser, openPage, screenshot } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

describe.skipIf(!run)('tokens on the sign-in page, in Chromium against the real server', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The status of `{ viewer { id } }` with `token`, straight from Node. */
  const statusWith = async (token: string) =>
    (
      await fetch(`${server.origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      })
    ).status;

  it('should create a read-only token shown once, list it, and revoke it so it stops working at once (desktop, English)', async () => {
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${server.origin}/signin`);
      const manager = page.getByTestId('token-manager');
      await manager.getByRole('heading', { name: 'Your tokens' }).waitFor();
      await manager.getByLabel('What it is for').fill('wall screen');
      await manager.getByLabel(/Read only/).check();
      await manager.getByLabel(/Expires after/).fill('30');
      await manager.getByRole('button', { name: 'Create the token' }).click();
      const token = (await page.getByTestId('new-token').textContent())?.trim() ?? '';
      expect(token).toMatch(/^tm_/);
      const row = page.getByTestId('token-row').filter({ hasText: 'wall screen' });
      await expect.poll(() => row.textContent()).toMatch(/Read only.*expires/s);
      await screenshot(page, 'tokens-desktop-en');
      expect(await statusWith(token)).toBe(200);

      await row.getByRole('button', { name: 'Revoke the token “wall screen”' }).click();
      await expect.poll(() => row.textContent()).toMatch(/revoked/);
      expect(await row.getByRole('button').count()).toBe(0);
      expect(await statusWith(token)).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('should mark the token this browser signed in with, and sign out when it is revoked (phone, Chinese)', async () => {
    const created = await call(server.api.client, CREATE_API_TOKEN, { label: '手机' });
    const context = await browser.newContext({
      locale: 'zh-CN',
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    try {
      await page.goto(`${server.origin}/signin`);
      await page.getByLabel('访问令牌').fill(created.token);
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.waitForURL(`${server.origin}/`);
      await page.goto(`${server.origin}/signin`);
      const row = page.getByTestId('token-row').filter({ hasText: '手机' });
      await expect.poll(() => row.textContent()).toMatch(/当前浏览器.*永不过期/s);
      await screenshot(page, 'tokens-phone-zh');
      await row.getByRole('button', { name: '撤销令牌“手机”' }).click();
      // Signed out: this browser is the local user again, and the token no longer works anywhere.
      await expect.poll(() => page.evaluate(() => localStorage.getItem('thinkingmap.token'))).toBeNull();
      expect(await statusWith(created.token)).toBe(401);
    } finally {
      await context.close();
    }
  });
});
