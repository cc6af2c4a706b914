import { CREATE_MAP, CREATE_NODE, UPDATE_MAP, UPDATE_NODE } from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, launchBrowser, openPage, screenshot } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();
const BEFORE = 'Open a bakery?';
const AFTER = 'Open two bakeries?';

describe.skipIf(!run)('undo, redo and the history panel in the web workspace (Chromium, real server)', () => {
  let server: WebServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && page)
      await screenshot(page, `failed-${context.task.name.replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function editedMap() {
    const client = server.api.client;
    const map = await call(client, CREATE_MAP, { input: { title: 'Bakery' } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: BEFORE } });
    await call(client, UPDATE_NODE, { input: { id: root.id, expectedVersion: root.version, question: AFTER } });
    return map.id;
  }

  it('should undo and redo with the keyboard and the buttons, and list the change with its diff', async () => {
    const mapId = await editedMap();
    page = (await openPage(browser)).page;
    await page.goto(`${server.origin}/maps/${mapId}`);
    await card(page, AFTER).waitFor();
    const undo = page.getByRole('button', { name: 'Undo', exact: true });
    await expect.poll(() => undo.isEnabled()).toBe(true);

    // Ctrl+Z in a text field is the field's own undo, not the map's: only the second press below undoes.
    await page.locator('#map-search').focus();
    await page.keyboard.press('Control+z');
    await page.locator('#map-search').blur();
    await page.keyboard.press('Control+z');
    await card(page, BEFORE).waitFor();
    await page.getByTestId('history-toggle').click();
    const panel = page.getByTestId('history-panel');
    await expect.poll(() => panel.getByTestId('history-change').first().getAttribute('data-kind')).toBe('UNDO');
    expect(await panel.locator('[data-testid=history-change][data-kind=UNDO]').count()).toBe(1);
    await page.getByTestId('history-toggle').click();

    await page.keyboard.press('Shift+Control+z');
    await card(page, AFTER).waitFor();
    await undo.click();
    await card(page, BEFORE).waitFor();
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    await card(page, AFTER).waitFor();

    await page.getByTestId('history-toggle').click();
    await expect.poll(() => panel.getByTestId('history-change').first().getAttribute('data-kind')).toBe('REDO');
    const edit = panel.locator('[data-testid=history-change][data-kind=EDIT]').filter({ hasText: AFTER }).first();
    await expect.poll(() => edit.textContent()).toContain('You');
    expect(await edit.locator('del').first().textContent()).toBe(BEFORE);
    expect(await edit.locator('ins').first().textContent()).toBe(AFTER);
  });

  it('should undo and show who changed what in Chinese', async () => {
    const mapId = await editedMap();
    const { page: zh } = await openPage(browser, 'zh-CN');
    page = zh;
    await zh.goto(`${server.origin}/maps/${mapId}`);
    await card(zh, AFTER).waitFor();
    const undo = zh.getByRole('button', { name: '撤销', exact: true });
    await expect.poll(() => undo.isEnabled()).toBe(true);
    await undo.click();
    await card(zh, BEFORE).waitFor();
    await zh.getByTestId('history-toggle').click();
    await expect.poll(() => zh.getByTestId('history-panel').textContent()).toContain('撤销了修改');
    expect(await zh.getByTestId('history-panel').textContent()).toContain('你');
  });
});
