import { PROCESS_NODE } from '@thinkingmap/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { horizontalOverflow, openPage, screenshot, seriousViolations } from './helpers/browser.ts';
import { browserSuite } from './helpers/browser-suite.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';

const run = chromiumAvailable();

/** The number a dashboard counter shows. */
const counter = (page: Page, name: string) => page.getByTestId(`count-${name}`).locator('.value').textContent();

describe.skipIf(!run)('the dashboard', () => {
  let page: Page;
  const suite = browserSuite(() => page, 'failed-dashboard');

  beforeAll(async () => {
    page = (await openPage(suite.browser)).page;
  });

  it('should follow, without a reload, a map another client creates and the run it starts, up to its question', async () => {
    await page.goto(`${suite.server.origin}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${suite.server.origin}/dashboard`);
    await page.getByTestId('dashboard-live').getByText('Live', { exact: true }).waitFor();
    expect(await counter(page, 'maps')).toBe('0');
    expect(await page.getByText('No agent is working right now.').isVisible()).toBe(true);
    // Nothing below reloads or navigates the page: every change arrives through the viewer-wide feed.
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));

    const cafe = await createMapWithTree(suite.server.api, 'Open a café', { 'Where should it be?': {} });
    const nodeId = cafe.ids.get('Where should it be?')!;
    await expect.poll(() => counter(page, 'maps')).toBe('1');
    await expect.poll(() => counter(page, 'nodes')).toBe('1');

    // The agent drafts a conclusion, held half-way: the dashboard shows it at work, in words.
    const release = suite.server.model.holdNextConclusion();
    await call(suite.server.api.client, PROCESS_NODE, { nodeId, intent: 'CONCLUDE' });
    const runs = page.getByTestId('runs-in-flight');
    await runs.getByText('The agent is drafting a conclusion').waitFor();
    expect(await runs.getByRole('link', { name: 'Where should it be?' }).getAttribute('href')).toBe(
      `/maps/${cafe.mapId}?node=${nodeId}`,
    );
    expect(await counter(page, 'in-flight')).toBe('1');
    await screenshot(page, 'dashboard-en-01-in-flight');

    // The draft is done: the run waits for the person's review, which opens the node.
    release();
    const questions = page.getByTestId('dashboard-questions');
    await questions.getByText('Review a conclusion').waitFor();
    await expect.poll(() => counter(page, 'in-flight')).toBe('0');
    expect(await counter(page, 'waiting')).toBe('1');
    expect(await questions.getByRole('link').getAttribute('href')).toBe(`/maps/${cafe.mapId}?node=${nodeId}`);
    expect(await questions.getByText('on “Open a café”').isVisible()).toBe(true);

    // Tokens: the counter, today's bar and the table agree.
    await expect.poll(async () => Number((await counter(page, 'tokens'))?.replace(/\D/g, ''))).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    const bar = page.getByTestId('token-chart').locator(`rect[data-day="${today}"]`);
    await expect.poll(async () => Number(await bar.getAttribute('data-total'))).toBeGreaterThan(0);
    await page.getByText('Show as a table').click();
    expect(
      await page
        .getByTestId('token-table')
        .getByRole('row', { name: new RegExp(today) })
        .isVisible(),
    ).toBe(true);
    expect(await page.getByTestId('tokens-by-map').getByText('Open a café').isVisible()).toBe(true);
    expect(loads).toEqual([]);
    await screenshot(page, 'dashboard-en-02-question');
    expect(await seriousViolations(page)).toEqual([]);

    await questions.getByRole('link').click();
    await page.waitForURL(`${suite.server.origin}/maps/${cafe.mapId}?node=${nodeId}`);

    // Back by its link from the map (a client-side navigation on the map's open socket): live within 3 s.
    await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state')).toBe('live');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${suite.server.origin}/dashboard`);
    await page.getByTestId('dashboard-live').getByText('Live', { exact: true }).waitFor({ timeout: 3000 });
  });

  it('should read in Chinese on a phone without sideways scrolling', async () => {
    const phone = (await openPage(suite.browser, 'zh-CN', 'phone')).page;
    try {
      await phone.goto(`${suite.server.origin}/dashboard`);
      await phone.getByRole('heading', { name: '总览', level: 1 }).waitFor();
      await phone.getByTestId('dashboard-questions').getByText('审阅结论').waitFor();
      expect(await phone.locator('figcaption').textContent()).toBe('每日词元用量（最近 14 天）');
      expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
      await screenshot(phone, 'dashboard-zh-phone');
    } finally {
      await phone.context().close();
    }
  });
});
