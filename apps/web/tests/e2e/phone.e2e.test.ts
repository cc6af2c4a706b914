import { SET_CONCLUSION } from '@thinkingmap/client';
import type { Browser, CDPSession, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import {
  card,
  headerFit,
  horizontalOverflow,
  launchBrowser,
  openPage,
  SCREENS,
  type ScreenName,
  screenshot,
  smallTargets,
  viewportOf,
} from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

const LONG = 'Supercalifragilisticexpialidocious-unbroken-words-that-never-end-'.repeat(4);

/** Sends touch points through Chromium's input pipeline (they arrive as pointer events of type touch). */
function touch(cdp: CDPSession) {
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: [number, number][]) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: points.map(([x, y], id) => ({ x, y, id, radiusX: 4, radiusY: 4, force: 1 })),
    });
  return {
    async drag(from: [number, number], by: [number, number], steps = 8) {
      await send('touchStart', [from]);
      for (let i = 1; i <= steps; i++)
        await send('touchMove', [[from[0] + (by[0] * i) / steps, from[1] + (by[1] * i) / steps]]);
      await send('touchEnd', []);
    },
    async pinch(center: [number, number], from: number, to: number, steps = 8) {
      const at = (d: number): [number, number][] => [
        [center[0] - d, center[1]],
        [center[0] + d, center[1]],
      ];
      await send('touchStart', at(from));
      for (let i = 1; i <= steps; i++) await send('touchMove', at(from + ((to - from) * i) / steps));
      await send('touchEnd', []);
    },
  };
}

/**
 * The size on screen of the area where a tap lands on `target` (its box and any transparent hit area around it,
 * as the browser's hit testing sees it), measured outwards from its centre.
 */
function tapArea(target: Locator) {
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const [cx, cy] = [box.left + box.width / 2, box.top + box.height / 2];
    const lands = (x: number, y: number) => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && el.contains(hit);
    };
    const reach = (dx: number, dy: number) => {
      let d = 0;
      while (d < 200 && lands(cx + dx * (d + 1), cy + dy * (d + 1))) d++;
      return d;
    };
    return { width: reach(-1, 0) + 1 + reach(1, 0), height: reach(0, -1) + 1 + reach(0, 1) };
  });
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe.skipIf(!run)('the workspace on a phone and a tablet', () => {
  let server: WebServer;
  let browser: Browser;
  let mapUrl = '';

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    const { mapId, ids } = await createMapWithTree(server.api, 'Open a neighbourhood café with a rather long title', {
      'Should I open a café in my neighbourhood?': {
        'Is there enough demand?': { 'How many people pass by?': {}, 'Who are the competitors?': {} },
        'What will it cost?': {},
        [LONG]: {},
      },
    });
    await call(server.api.client, SET_CONCLUSION, {
      input: { nodeId: ids.get('What will it cost?')!, conclusion: 'About 40,000 to open.', kind: 'ANALYTICAL' },
    });
    mapUrl = `${server.origin}/maps/${mapId}`;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function phonePage(locale: string, screen: ScreenName = 'phone') {
    return (await openPage(browser, locale, screen)).page;
  }

  it.each([
    ['en-US', 'en'],
    ['zh-CN', 'zh'],
  ])(
    'should fit the map list and the new-map form on a phone, with the header in a menu (%s)',
    async (locale, lang) => {
      const page = await phonePage(locale);
      await page.goto(`${server.origin}/`);
      await page.getByTestId('map-card').first().waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // Every control takes a 24 px tap at least (WCAG 2.2 target size).
      expect(await smallTargets(page)).toEqual([]);
      await screenshot(page, `phone-${lang}-01-map-list`);

      // The navigation, the viewer and the language switch are behind the menu button, not off-screen.
      const menu = page.getByRole('button', { name: lang === 'en' ? 'Menu' : '菜单' });
      expect(await menu.isVisible()).toBe(true);
      await menu.click();
      const switchTo = page.getByRole('button', { name: lang === 'en' ? '中文' : 'English' });
      const box = (await switchTo.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(44);
      await screenshot(page, `phone-${lang}-02-menu`);
      await page
        .locator('#site-menu')
        .getByRole('link', { name: lang === 'en' ? 'New map' : '新建导图' })
        .click();
      await page.waitForURL(/\/maps\/new$/);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await smallTargets(page)).toEqual([]);
      // The primary action and the choice of kind take a finger (44 px).
      const create = (await page
        .getByRole('button', { name: lang === 'en' ? 'Create the map' : '创建导图' })
        .boundingBox())!;
      expect(create.height).toBeGreaterThanOrEqual(44);
      const kinds = await page
        .locator('label:has(input[type=radio])')
        .evaluateAll((labels) => labels.map((label) => Math.round(label.getBoundingClientRect().height)));
      for (const height of kinds) expect(height).toBeGreaterThanOrEqual(44);
      await screenshot(page, `phone-${lang}-03-new-map`);

      // The smallest phones: nothing reaches past 360 px either.
      await page.setViewportSize(SCREENS.smallPhone);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `phone360-${lang}-03-new-map`);
      await page.goto(`${server.origin}/`);
      await page.getByTestId('map-card').first().waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `phone360-${lang}-01-map-list`);
      await page.context().close();
    },
  );

  it('should show the workspace on a phone: one-line title, reachable export, touch-sized controls, legend clear of them', async () => {
    const page = await phonePage('en-US');
    await page.goto(mapUrl);
    await card(page, 'Should I open a café in my neighbourhood?').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const title = (await page.getByTestId('map-title').boundingBox())!;
    expect(title.height).toBeLessThan(32);
    expect(await smallTargets(page)).toEqual([]);
    // Every header control (consult, search, undo, redo, history, critic review, …) on screen, the search usable.
    const fit = await headerFit(page);
    expect(fit.offScreen).toEqual([]);
    expect(fit.searchWidth).toBeGreaterThanOrEqual(140);
    const exportButton = (await page.getByTestId('export-menu').boundingBox())!;
    expect(exportButton.x + exportButton.width).toBeLessThanOrEqual(390);
    for (const name of ['Zoom in', 'Zoom out', 'Fit the map', 'Legend']) {
      const button = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(button.height, name).toBeGreaterThanOrEqual(44);
      expect(button.width, name).toBeGreaterThanOrEqual(44);
    }
    await page.getByRole('button', { name: 'Legend', exact: true }).click();
    const legend = (await page.locator('#map-legend').boundingBox())!;
    const controls = (await page.getByRole('toolbar', { name: 'Map view' }).boundingBox())!;
    expect(overlaps(legend, controls)).toBe(false);
    await screenshot(page, 'phone-en-04-workspace-legend');
    await page.getByRole('button', { name: 'Legend', exact: true }).click();
    await screenshot(page, 'phone-en-05-workspace');
    await page.context().close();
  });

  it('should give the fold handle and the conclusion pill a finger-sized tap area without making them bigger', async () => {
    const page = await phonePage('en-US');
    await page.goto(mapUrl);
    const cost = card(page, 'What will it cost?');
    await cost.waitFor();
    // At the cards' own size (the handle and the pill show from 0.6; below 1 the pill's area stops at the
    // card's middle, which selects the card, as the tablet test below shows).
    while ((await viewportOf(page)).k < 1) await page.getByRole('button', { name: 'Zoom in', exact: true }).tap();
    const { k } = await viewportOf(page);
    const root = card(page, 'Is there enough demand?');
    const fold = root.locator('[data-fold]');
    const pill = cost.locator('[data-expand]');
    for (const [name, control] of [
      ['fold', fold],
      ['conclusion', pill],
    ] as const) {
      const area = await tapArea(control);
      expect(area.width, name).toBeGreaterThanOrEqual(44);
      expect(area.height, name).toBeGreaterThanOrEqual(44);
    }
    // What shows stays as on a desktop: a 22 px handle, and cards of the layout's size.
    const handle = (await fold.boundingBox())!;
    expect(handle.height).toBeCloseTo(22 * k, 0);
    expect((await cost.boundingBox())!.height).toBeCloseTo(74 * k, 0);

    // A tap beside the small handle, inside its area, folds the branch; one below the pill opens the conclusion.
    await page.touchscreen.tap(handle.x + handle.width / 2, handle.y + handle.height / 2 + 18);
    await expect.poll(() => root.getAttribute('aria-expanded')).toBe('false');
    await page.touchscreen.tap(handle.x + handle.width / 2, handle.y + handle.height / 2 - 18);
    await expect.poll(() => root.getAttribute('aria-expanded')).toBe('true');
    const chip = (await pill.boundingBox())!;
    await page.touchscreen.tap(chip.x + chip.width / 2, chip.y + chip.height + 6);
    await cost.getByTestId('card-conclusion').waitFor();
    await screenshot(page, 'phone-en-11-touch-targets');
    await page.context().close();
  });

  it('should pan with one finger, pinch to zoom, and open a tapped node as a bottom sheet that never scrolls sideways', async () => {
    const page = await phonePage('en-US');
    const cdp = await page.context().newCDPSession(page);
    await page.goto(mapUrl);
    await card(page, 'Is there enough demand?').waitFor();
    const canvas = (await page.getByTestId('canvas').boundingBox())!;
    const middle: [number, number] = [canvas.x + canvas.width / 2, canvas.y + canvas.height / 2];

    const before = await viewportOf(page);
    await touch(cdp).drag(middle, [-80, 60]);
    const panned = await viewportOf(page);
    expect(panned.x).toBeCloseTo(before.x - 80, 0);
    expect(panned.y).toBeCloseTo(before.y + 60, 0);
    expect(panned.k).toBe(before.k);

    await touch(cdp).pinch(middle, 40, 100);
    const zoomed = await viewportOf(page);
    expect(zoomed.k).toBeCloseTo(Math.min(2.5, panned.k * 2.5), 1);

    await page.getByRole('button', { name: 'Fit the map' }).tap();
    await card(page, 'Is there enough demand?').tap();
    const panel = page.getByTestId('node-panel');
    await panel.waitFor();
    const sheet = (await panel.boundingBox())!;
    expect(sheet.x).toBe(0);
    expect(sheet.width).toBe(390);
    expect(sheet.y + sheet.height).toBeCloseTo(844, 0);
    expect(sheet.height).toBeLessThan(844 * 0.7);
    await screenshot(page, 'phone-en-06-bottom-sheet');
    // The sheet leaves the page usable: a header panel opens over it, not under it…
    await page.getByTestId('critic-toggle').tap();
    const critic = page.getByTestId('critic-panel');
    await critic.waitFor();
    const over = (await critic.boundingBox())!;
    expect(
      await page.evaluate(
        ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('[data-testid=critic-panel]'),
        [over.x + over.width / 2, over.y + over.height / 2],
      ),
    ).toBe(true);
    await screenshot(page, 'phone-en-06b-review-over-sheet');
    await page.getByTestId('critic-toggle').tap();
    await expect.poll(() => critic.count()).toBe(0);
    // …and a tap on the map away from the cards puts it away (so does swiping it down, below).
    await page.touchscreen.tap(canvas.x + 6, canvas.y + 6);
    await expect.poll(() => panel.count()).toBe(0);
    await card(page, 'Is there enough demand?').tap();
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Show more of the details' }).tap();
    await expect.poll(async () => (await panel.boundingBox())!.height).toBeGreaterThan(844 * 0.8);
    await panel.getByRole('button', { name: 'Close the details' }).tap();
    await expect.poll(() => panel.count()).toBe(0);

    // A question written without a break point wraps inside the sheet instead of pushing it sideways.
    await page.getByRole('button', { name: 'Fit the map' }).tap();
    await card(page, LONG).tap();
    await panel.waitFor();
    expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const grip = (await panel.getByRole('button', { name: 'Show more of the details' }).boundingBox())!;
    await touch(cdp).drag([grip.x + grip.width / 2, grip.y + grip.height / 2], [0, 140]);
    await expect.poll(() => panel.count()).toBe(0);
    // The next tap on a card opens it at once: the swipe left nothing behind to swallow it.
    await card(page, 'What will it cost?').tap();
    await panel.waitFor();
    await page.context().close();
  });

  it('should switch between the map and the outline on a phone, and stay within 360 px', async () => {
    const page = await phonePage('zh-CN', 'smallPhone');
    await page.goto(mapUrl);
    await card(page, 'What will it cost?').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const fit = await headerFit(page);
    expect(fit.offScreen).toEqual([]);
    expect(fit.searchWidth).toBeGreaterThanOrEqual(140);
    await screenshot(page, 'phone360-zh-07-workspace');
    await page.getByTestId('view-switch').tap();
    const outline = page.getByTestId('outline');
    await outline.getByRole('treeitem', { name: /^What will it cost\?/ }).tap();
    await page.getByTestId('node-panel').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone360-zh-08-outline-sheet');
    await page.context().close();
  });

  it('should open one header popover at a time on a desktop, and show the whole title when pressed', async () => {
    const page = await phonePage('en-US', 'desktop');
    await page.goto(mapUrl);
    await card(page, 'What will it cost?').waitFor();
    expect((await headerFit(page)).offScreen).toEqual([]);
    await page.getByTestId('history-toggle').click();
    await page.getByTestId('history-panel').waitFor();
    await page.getByTestId('critic-toggle').click();
    await page.getByTestId('critic-panel').waitFor();
    expect(await page.getByTestId('history-panel').count()).toBe(0);
    await page.getByTestId('export-menu').click();
    await page.getByRole('menu').waitFor();
    expect(await page.getByTestId('critic-panel').count()).toBe(0);
    await screenshot(page, 'desktop-en-13-one-popover');
    await page.keyboard.press('Escape');
    const title = page.getByTestId('map-title').getByRole('button');
    await title.click();
    expect(await title.getAttribute('aria-expanded')).toBe('true');
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await title.textContent()).toBe('Open a neighbourhood café with a rather long title');
    await page.context().close();
  });

  it.each([
    ['en-US', 'en'],
    ['zh-CN', 'zh'],
  ])('should keep the panel beside the map on a tablet, and the phone sheet in %s', async (locale, lang) => {
    const tablet = (await openPage(browser, locale, 'tablet')).page;
    await tablet.goto(`${mapUrl}?node=`);
    await card(tablet, 'What will it cost?').tap();
    const panel = (await tablet.getByTestId('node-panel').boundingBox())!;
    expect(panel.x).toBeGreaterThan(400);
    expect(await horizontalOverflow(tablet)).toBeLessThanOrEqual(0);
    // The map keeps room beside the panel.
    expect((await tablet.getByTestId('canvas').boundingBox())!.width).toBeGreaterThanOrEqual(300);
    // Every header control is on screen, or in the "More" menu, which is.
    expect((await headerFit(tablet)).offScreen).toEqual([]);
    await screenshot(tablet, `tablet-${lang}-09-workspace`);
    const more = tablet.getByTestId('more-menu');
    if (await more.count()) {
      await more.click();
      expect(await tablet.getByRole('menuitemcheckbox').count()).toBeGreaterThan(0);
      await screenshot(tablet, `tablet-${lang}-12-more-menu`);
      await tablet.keyboard.press('Escape');
    }
    await tablet.context().close();

    const phone = await phonePage(locale);
    await phone.goto(mapUrl);
    await card(phone, 'What will it cost?').tap();
    await phone.getByTestId('node-panel').waitFor();
    await screenshot(phone, `phone-${lang}-10-sheet`);
    await phone.context().close();
  });
});
