import { ADD_DEPENDENCY, SET_CONCLUSION } from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, launchBrowser, openPage, screenshot } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

const LONG =
  'How many people walk past the corner of the station every weekday morning between seven and nine, and how many of them already carry a coffee?';

/**
 * Points along every dependency arrow that fall inside a card other than the two it joins (screen
 * coordinates, sampled along the drawn SVG path): a route that runs over a card shows up here.
 */
function pointsOverCards(page: Page) {
  return page.evaluate(() => {
    const cards = [...document.querySelectorAll('[role=treeitem][data-node-id]')].map((el) => ({
      id: el.getAttribute('data-node-id'),
      rect: el.getBoundingClientRect(),
    }));
    const hits: string[] = [];
    for (const path of document.querySelectorAll<SVGPathElement>('.dependency-edges path[data-from]')) {
      const from = path.getAttribute('data-from');
      const to = path.getAttribute('data-to');
      const matrix = path.getScreenCTM()!;
      const length = path.getTotalLength();
      for (let at = 0; at <= length; at += 4) {
        const p = path.getPointAtLength(at).matrixTransform(matrix);
        for (const { id, rect } of cards)
          if (
            id !== from &&
            id !== to &&
            p.x > rect.left + 1 &&
            p.x < rect.right - 1 &&
            p.y > rect.top + 1 &&
            p.y < rect.bottom - 1
          )
            hits.push(`${from}>${to} over ${id}`);
      }
    }
    return [...new Set(hits)];
  });
}

describe.skipIf(!run)('reading the map without clicking', () => {
  let server: WebServer;
  let browser: Browser;
  let mapUrl = '';

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    const { mapId, ids } = await createMapWithTree(server.api, 'Reading the café map', {
      'Should I open a café?': {
        'How big is the market?': { 'Who lives nearby?': { 'Count the flats': {} }, [LONG]: {} },
        'Where should it be?': { 'Near the station?': {} },
        'What will it cost?': {},
        'Who will work there?': {},
      },
    });
    const id = (q: string) => ids.get(q)!;
    await call(server.api.client, SET_CONCLUSION, {
      input: { nodeId: id('How big is the market?'), conclusion: 'About 3,000 cups a day.', kind: 'ANALYTICAL' },
    });
    // Waiting for something concluded (met), for something open (unmet), and a long way across the tree.
    await call(server.api.client, ADD_DEPENDENCY, {
      nodeId: id('Who will work there?'),
      dependsOnId: id('How big is the market?'),
    });
    await call(server.api.client, ADD_DEPENDENCY, {
      nodeId: id('What will it cost?'),
      dependsOnId: id('Where should it be?'),
    });
    await call(server.api.client, ADD_DEPENDENCY, {
      nodeId: id('Count the flats'),
      dependsOnId: id('What will it cost?'),
    });
    mapUrl = `${server.origin}/maps/${mapId}`;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('should show each card’s status at a glance and open its conclusion on the card', async () => {
    const { page } = await openPage(browser);
    await page.goto(mapUrl);
    const market = card(page, 'How big is the market?');
    await market.waitFor();
    expect(await market.locator('.status').textContent()).toContain('Concluded');
    expect(await card(page, 'What will it cost?').locator('.status').textContent()).toContain('Blocked');
    expect(await card(page, 'Who will work there?').locator('.status').textContent()).toContain('Ready');

    await market.locator('[data-expand]').click();
    await market.getByTestId('card-conclusion').getByText('About 3,000 cups a day.').waitFor();
    await market.locator('[data-expand]').click();
    await expect.poll(() => market.getByTestId('card-conclusion').count()).toBe(0);
    // One switch shows every conclusion; the keyboard opens one with C.
    await page.getByRole('button', { name: 'Conclusions', exact: true }).click();
    await market.getByTestId('card-conclusion').waitFor();
    await screenshot(page, 'read-en-01-conclusions');
    await page.getByRole('button', { name: 'Conclusions', exact: true }).click();
    await market.focus();
    await page.keyboard.press('c');
    await market.getByTestId('card-conclusion').waitFor();
    await page.context().close();
  });

  it('should show the full question on hover and on keyboard focus', async () => {
    const { page } = await openPage(browser);
    await page.goto(mapUrl);
    const long = card(page, LONG);
    await long.waitFor();
    // The card shows two lines of it …
    expect(await long.locator('.question').evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    // … and the whole question when pointed at or focused.
    await long.hover();
    await expect.poll(() => page.getByTestId('card-tip').textContent()).toContain(LONG);
    await screenshot(page, 'read-en-02-hover');
    await page.mouse.move(5, 300);
    await expect.poll(() => page.getByTestId('card-tip').count()).toBe(0);
    await card(page, 'Who will work there?').focus();
    await expect.poll(() => page.getByTestId('card-tip').textContent()).toContain('Who will work there?');
    await page.context().close();
  });

  it('should tell met dependencies from open ones and route them round the cards', async () => {
    const { page } = await openPage(browser);
    await page.goto(mapUrl);
    await card(page, 'Count the flats').waitFor();
    const edge = (to: string) =>
      card(page, to)
        .getAttribute('data-node-id')
        .then((id) => page.locator(`.dependency-edges path[data-to="${id}"]`));
    const met = await edge('Who will work there?');
    const open = await edge('What will it cost?');
    expect(await met.getAttribute('data-met')).toBe('true');
    expect(await met.getAttribute('marker-end')).toBe('url(#dep-arrow-met)');
    expect(await open.getAttribute('data-met')).toBe('false');
    expect(await open.getAttribute('marker-end')).toBe('url(#dep-arrow-open)');
    const stroke = (path: typeof met) => path.evaluate((el) => getComputedStyle(el).stroke);
    expect(await stroke(met)).not.toBe(await stroke(open));
    expect(await pointsOverCards(page)).toEqual([]);
    await screenshot(page, 'read-en-03-dependencies');
    await page.context().close();
  });

  it.each([
    ['en-US', 'en', 'desktop'],
    ['zh-CN', 'zh', 'desktop'],
    ['en-US', 'en', 'phone'],
    ['zh-CN', 'zh', 'phone'],
  ] as const)('should read the same in %s (%s) on a %s', async (locale, lang, screen) => {
    const { page } = await openPage(browser, locale, screen);
    await page.goto(mapUrl);
    await card(page, 'Should I open a café?').waitFor();
    if (screen === 'desktop') expect(await pointsOverCards(page)).toEqual([]);
    await screenshot(page, `read-${lang}-${screen}`);
    await page.context().close();
  });
});
