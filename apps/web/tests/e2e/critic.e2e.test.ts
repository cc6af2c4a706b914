import { CREATE_MAP, CREATE_NODE, UPDATE_MAP } from '@thinkingmap/client';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, horizontalOverflow, openPage, screenshot } from './helpers/browser.ts';
import { browserSuite } from './helpers/browser-suite.ts';
import { chromiumAvailable } from './helpers/chromium.ts';

const run = chromiumAvailable();

describe.skipIf(!run)('critic review in the web workspace (Chromium, real server, scripted model)', () => {
  let page: Page;
  const suite = browserSuite(() => page);

  async function mapWith(root: string, child: string) {
    const client = suite.server.api.client;
    const map = await call(client, CREATE_MAP, { input: { title: root } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const node = await call(client, CREATE_NODE, { input: { mapId: map.id, question: root } });
    await call(client, CREATE_NODE, { input: { mapId: map.id, parentId: node.id, question: child } });
    return map.id;
  }

  it('should review the map, apply an accepted suggestion and drop a dismissed one', async () => {
    const mapId = await mapWith('Open a bakery?', 'Where?');
    page = (await openPage(suite.browser)).page;
    await page.goto(`${suite.server.origin}/maps/${mapId}`);
    await card(page, 'Where?').waitFor();

    await page.getByTestId('critic-toggle').click();
    const panel = page.getByTestId('critic-panel');
    await panel.getByRole('button', { name: 'Review the whole map' }).click();
    const suggestions = panel.getByTestId('critic-suggestion');
    await expect.poll(() => suggestions.count()).toBe(2);
    const gap = panel.locator('[data-testid=critic-suggestion][data-kind=GAP]');
    expect(await gap.textContent()).toContain('Add “Who would run it?” under “Open a bakery?”.');

    await gap.getByRole('button', { name: 'Accept' }).click();
    await card(page, 'Who would run it?').waitFor();
    await expect.poll(() => suggestions.count()).toBe(1);
    await panel
      .locator('[data-testid=critic-suggestion][data-kind=OVERLAP]')
      .getByRole('button', { name: 'Dismiss' })
      .click();
    await panel.getByText('No open suggestions.').waitFor();
    expect(await card(page, 'Where?').count()).toBe(1);

    // The critic's run (on no node, so in no node panel) opens from the review, named for what it did.
    await panel.getByRole('button', { name: 'View the run' }).click();
    const view = page.getByTestId('run-view');
    await expect.poll(() => view.getByTestId('run-view-status').textContent(), { timeout: 15_000 }).toBe('Done');
    expect(await view.locator('header').textContent()).toContain('Reviewing the map');
    await expect
      .poll(() => view.getByTestId('run-step').evaluateAll((els) => els.map((el) => el.getAttribute('data-step'))))
      .toContain('reviewScope');
    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);
  });

  it('should review in Chinese on a phone, the panel within the screen', async () => {
    const mapId = await mapWith('要不要开一家面包店？', '开在哪里？');
    const { page: zh } = await openPage(suite.browser, 'zh-CN', 'phone');
    page = zh;
    await zh.goto(`${suite.server.origin}/maps/${mapId}`);
    await card(zh, '开在哪里？').waitFor();
    await zh.getByTestId('critic-toggle').click();
    const panel = zh.getByTestId('critic-panel');
    await panel.getByRole('button', { name: '审阅整张导图' }).click();
    const gap = panel.locator('[data-testid=critic-suggestion][data-kind=GAP]');
    await gap.waitFor();
    expect(await horizontalOverflow(zh)).toBeLessThanOrEqual(0);
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(zh, 'critic-zh-phone');
    expect(await gap.textContent()).toContain('有遗漏');
    expect(await gap.textContent()).toContain('在“要不要开一家面包店？”下添加“谁来经营？”。');
    await gap.getByRole('button', { name: '采纳' }).click();
    await card(zh, '谁来经营？').waitFor();
    await panel.getByRole('button', { name: '查看运行过程' }).click();
    const view = zh.getByTestId('run-view');
    await expect.poll(() => view.locator('header').textContent()).toContain('审阅导图');
  });
});
