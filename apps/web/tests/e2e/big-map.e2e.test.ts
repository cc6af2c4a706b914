import { loadavg } from 'node:os';
import { NODE, SET_CONCLUSION, UPDATE_NODE } from '@thinkingmap/client';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, launchBrowser, openPage, screenshot, viewportOf } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createBigMap } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();
const COUNT = 2000;

/** Records every long task (main-thread work over 50 ms) from the start of the page, for the figures. */
const RECORD_LONG_TASKS = () => {
  const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
};

/** The machine's load average (1, 5, 15 min) beside the timings: other processes share the CPU. */
const loadAverage = () => loadavg().map((n) => Math.round(n * 100) / 100);

const now = (page: Page) => page.evaluate(() => performance.now());

/** The renderer's counters Chromium keeps (DevTools' Performance.getMetrics): main-thread time and DOM size. */
async function metricsOf(cdp: CDPSession) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return {
    /** Main-thread busy time, script time, layout and style time, in ms (CPU time, not waiting). */
    taskMs: value('TaskDuration') * 1000,
    scriptMs: value('ScriptDuration') * 1000,
    layoutMs: (value('LayoutDuration') + value('RecalcStyleDuration')) * 1000,
    domNodes: value('Nodes'),
  };
}

/**
 * Opens the map in `page` and returns when each part of the first render was reached, from navigation to the
 * frame that draws the map (the page's own marks), with the main thread's work and the page's size at that frame.
 */
async function openAndTime(page: Page, url: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('tm:first-render').length > 0);
  // What the person sees: when the first card's text was painted (Element Timing), from navigation (time 0).
  const firstCardMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list, observer) => {
          const card = list
            .getEntries()
            .find((entry) => (entry as PerformanceEntry & { identifier?: string }).identifier === 'tm-card');
          if (!card) return;
          observer.disconnect();
          resolve(Math.round((card as PerformanceEntry & { renderTime?: number }).renderTime || card.startTime));
        }).observe({ type: 'element', buffered: true });
      }),
  );
  const metrics = await metricsOf(cdp);
  const marks = await page.evaluate(() => {
    const at = (name: string) => Math.round(performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN);
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    // The map's read, started by the page's first script: the largest of the workspace's GraphQL answers.
    const [read] = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.name.endsWith('/graphql'))
      .sort((a, b) => b.decodedBodySize - a.decodedBodySize);
    return {
      htmlMs: Math.round(nav.responseEnd),
      mapReadStartMs: Math.round(read?.startTime ?? Number.NaN),
      mapReadEndMs: Math.round(read?.responseEnd ?? Number.NaN),
      mapReadBytes: read?.decodedBodySize ?? 0,
      appStartMs: at('tm:app'),
      workspaceMountMs: at('tm:workspace'),
      dataInStoreMs: at('tm:data'),
      firstRenderMs: at('tm:first-render') - Math.round(nav.startTime),
      cardsDrawn: document.querySelectorAll('[role=treeitem][data-node-id]').length,
    };
  });
  return { ...marks, firstCardMs, cdp, mainThread: metrics };
}
const longTasksBetween = (page: Page, from: number, to: number) =>
  page.evaluate(
    ([a, b]) =>
      (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks.filter(
        (t) => t.start >= a! && t.start <= b!,
      ),
    [from, to],
  );

describe.skipIf(!run)(`a ${COUNT}-node map in Chromium`, () => {
  let server: WebServer;
  let browser: Browser;
  let page: Page;
  let mapUrl = '';
  let ids: string[] = [];

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    const created = await createBigMap(server, 'Two thousand questions', COUNT, 6);
    ids = created.ids;
    mapUrl = `${server.origin}/maps/${created.mapId}`;
    page = (await openPage(browser)).page;
    await page.addInitScript(RECORD_LONG_TASKS);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('should open (first render), pan without long tasks and take live updates; the figures are printed', async () => {
    // The first open reads the map from the database; a second open finds it in the server's read cache.
    const navStarted = Date.now();
    const first = await openAndTime(page, mapUrl);
    const wallToTree = Date.now() - navStarted;
    const again = (await openPage(browser)).page;
    const warm = await openAndTime(again, mapUrl);
    await again.context().close();
    await screenshot(page, 'big-01-2000-nodes');

    const box = (await page.getByTestId('canvas').boundingBox())!;
    const before = await viewportOf(page);
    const beforePan = await metricsOf(first.cdp);
    const panStart = await now(page);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 0; i < 60; i++) await page.mouse.move(box.x + box.width / 2 - i * 6, box.y + box.height / 2 - i * 8);
    await page.mouse.up();
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 120);
    const panEnd = await now(page);
    const afterPan = await metricsOf(first.cdp);
    const after = await viewportOf(page);
    const panLongTasks = await longTasksBetween(page, panStart, panEnd);
    const cardsAfterPan = await page.locator('[role=treeitem][data-node-id]').count();

    const updateStarted = Date.now();
    for (let i = 0; i < 20; i++) {
      const node = await call(server.api.client, NODE, { id: ids[200 + i]! });
      await call(server.api.client, UPDATE_NODE, {
        input: { id: ids[200 + i]!, expectedVersion: node.version, question: `Updated live ${i}` },
      });
    }
    await expect
      .poll(() => page.getByTestId('live-state').getAttribute('data-applied'), { timeout: 20_000 })
      .toBe('20');
    const updateLatency = Date.now() - updateStarted;

    const opened = (o: typeof first) => ({
      firstCardPaintedSinceNavigationMs: o.firstCardMs,
      firstRenderSinceNavigationMs: o.firstRenderMs,
      // When each part was reached, from navigation: the page, the map's read (started by the page's first
      // script), the app's code running, the workspace mounted, the map in the store, the first frame drawn.
      stepsMs: {
        html: o.htmlMs,
        mapRead: `${o.mapReadStartMs}–${o.mapReadEndMs}`,
        appStart: o.appStartMs,
        workspaceMount: o.workspaceMountMs,
        dataInStore: o.dataInStoreMs,
        firstRender: o.firstRenderMs,
      },
      mapReadKB: Math.round(o.mapReadBytes / 1024),
      // CPU time of the page's main thread up to that frame (less sensitive to other processes than the clock).
      mainThreadMs: Math.round(o.mainThread.taskMs),
      scriptMs: Math.round(o.mainThread.scriptMs),
      styleAndLayoutMs: Math.round(o.mainThread.layoutMs),
      domNodes: o.mainThread.domNodes,
      cardsDrawn: o.cardsDrawn,
    });
    const figures = {
      nodes: COUNT,
      load: loadAverage(),
      wallClockToTreeMs: wallToTree,
      firstOpen: opened(first),
      secondOpen: opened(warm),
      pan: {
        longTasks: panLongTasks.length,
        longestTaskMs: Math.round(Math.max(0, ...panLongTasks.map((t) => t.duration))),
        mainThreadMs: Math.round(afterPan.taskMs - beforePan.taskMs),
        cardsDrawnAfter: cardsAfterPan,
        domNodesAfter: afterPan.domNodes,
      },
      twentyUpdatesVisibleAfterMs: updateLatency,
    };
    console.log(`[web e2e] ${COUNT}-node map figures: ${JSON.stringify(figures, null, 2)}`);
    // Figures, not timed assertions (a loaded CI machine would make them flaky): the targets are reported.
    for (const [target, met] of [
      ['first card painted under 1 s (first open)', first.firstCardMs < 1000],
      ['first card painted under 1 s (second open)', warm.firstCardMs < 1000],
      ['first render under 1 s (first open)', first.firstRenderMs < 1000],
      ['first render under 1 s (second open)', warm.firstRenderMs < 1000],
      ['no long task while panning', panLongTasks.length === 0],
    ] as const)
      console.log(`[web e2e] ${met ? 'met' : 'NOT met'}: ${target}`);
    // What must hold however slow the machine: every node shown, only the cards near the view in the page
    // (the rest wait off-screen), the map moved with the pointer, live edits shown.
    expect(await page.getByTestId('canvas').getAttribute('data-shown')).toBe(String(COUNT));
    for (const drawn of [first.cardsDrawn, warm.cardsDrawn, cardsAfterPan]) {
      expect(drawn).toBeGreaterThan(0);
      expect(drawn).toBeLessThan(COUNT / 10);
    }
    expect(first.mainThread.domNodes).toBeLessThan(COUNT * 2);
    expect(after.x).toBeLessThan(before.x);
    expect(after.y).toBeLessThan(before.y);
    await page.locator('#map-search').fill('Updated live');
    await expect.poll(() => page.getByTestId('search-count').textContent()).toContain('20 found');
    await page.locator('#map-search').fill('');
  });

  it('should fit the whole map in view, drawing cards as blocks, and show the text again when zoomed in', async () => {
    await page.getByRole('button', { name: 'Fit the map' }).click();
    const canvas = (await page.getByTestId('canvas').boundingBox())!;
    const [left, top, right, bottom] = ((await page.getByTestId('canvas').getAttribute('data-map-box')) ?? '')
      .split(',')
      .map(Number);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(canvas.width);
    expect(bottom).toBeLessThanOrEqual(canvas.height);
    // Every card is drawn as a block of its status colour on one canvas.
    expect(await page.getByTestId('viewport').getAttribute('data-detail')).toBe('overview');
    expect(await page.locator('canvas.overview').count()).toBe(1);
    await screenshot(page, 'big-02-fit');
    await page.locator('[role=treeitem][tabindex="0"]').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    for (let i = 0; i < 40 && (await viewportOf(page)).k < 0.7; i++) await page.keyboard.press('+');
    expect(await page.getByTestId('viewport').getAttribute('data-detail')).toBe('full');
  });

  it('should fold a branch, remember it after a reload, and unfold it from the keyboard', async () => {
    const branch = card(page, 'Question 1: what about part 1 of the plan?');
    await page.locator('#map-search').fill('part 1 of the plan');
    await page.locator('#map-search').press('Enter');
    await branch.waitFor();
    const shown = () =>
      page
        .getByTestId('canvas')
        .getAttribute('data-shown')
        .then((n) => Number(n));
    const total = await shown();
    await branch.locator('[data-fold]').click();
    await expect.poll(() => branch.getAttribute('aria-expanded')).toBe('false');
    const folded = await shown();
    // Question 1's branch holds about a sixth of the map.
    expect(total - folded).toBeGreaterThan(300);
    expect(await page.getByRole('treeitem', { name: /^Question 1: .* hidden below/ }).count()).toBe(1);
    await page.locator('#map-search').fill('');

    await page.reload();
    await card(page, 'Question 1: what about part 1 of the plan?').waitFor();
    await expect.poll(shown).toBe(folded);
    expect(await card(page, 'Question 1: what about part 1 of the plan?').getAttribute('aria-expanded')).toBe('false');

    await card(page, 'Question 1: what about part 1 of the plan?').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(shown).toBe(total);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(shown).toBe(folded);
  });

  it('should find a question anywhere, even in a folded branch, and jump to it', async () => {
    const search = page.locator('#map-search');
    await search.fill('part 1999');
    await expect.poll(() => page.getByTestId('search-count').textContent()).toContain('1 found');
    await page.getByRole('option').first().waitFor();
    await screenshot(page, 'big-03-search');
    await search.press('Enter');
    const target = card(page, 'Question 1999: what about part 1999 of the plan?');
    await target.waitFor();
    await expect.poll(() => target.getAttribute('aria-selected')).toBe('true');
    expect(await target.getAttribute('class')).toContain('current');
    const canvas = (await page.getByTestId('canvas').boundingBox())!;
    const place = (await target.boundingBox())!;
    expect(place.x).toBeGreaterThanOrEqual(canvas.x);
    expect(place.x + place.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    expect(place.y).toBeGreaterThanOrEqual(canvas.y);
    expect(place.y + place.height).toBeLessThanOrEqual(canvas.y + canvas.height);
    expect(await page.locator('.card.dim').count()).toBeGreaterThan(0);
    await search.press('Escape');
    await search.press('Escape');
    await expect.poll(() => page.locator('.card.dim').count()).toBe(0);
  });

  it('should keep the outline and the canvas in step, and move through the outline with the keyboard', async () => {
    await page.getByRole('button', { name: 'Outline', exact: true }).click();
    const outline = page.getByTestId('outline');
    await outline.waitFor();
    // The node selected on the canvas is selected in the outline.
    expect(await outline.locator('[aria-selected="true"]').getAttribute('aria-label')).toMatch(/^Question 1999:/);

    // Only the rows in view are in the page; Home brings the first one, Space selects it on the canvas too.
    await outline.locator('[role=treeitem][tabindex="0"]').focus();
    await page.keyboard.press('Home');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(/^Question 0:/);
    await page.keyboard.press(' ');
    await expect
      .poll(() => card(page, 'Question 0: what about part 0 of the plan?').getAttribute('aria-selected'))
      .toBe('true');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(/^Question 1:/);
    // Left folds an open branch, Right unfolds it, then goes to its first child.
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => outline.getByRole('treeitem', { name: /^Question 1:/ }).getAttribute('aria-expanded'))
      .toBe('false');
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => outline.getByRole('treeitem', { name: /^Question 1:/ }).getAttribute('aria-expanded'))
      .toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(/^Question 7:/);
    // Page Down moves a screenful of rows and Page Up comes back; a typed letter goes to the next question
    // starting with it (here every question starts with Q).
    const focusedTop = () => page.evaluate(() => Number.parseFloat((document.activeElement as HTMLElement).style.top));
    const perScreen = await outline.locator('.scroller').evaluate((el) => Math.floor(el.clientHeight / 32));
    const from = await focusedTop();
    await page.keyboard.press('PageDown');
    await expect.poll(focusedTop).toBe(from + perScreen * 32);
    await page.keyboard.press('PageUp');
    await expect.poll(focusedTop).toBe(from);
    await page.keyboard.press('q');
    await expect.poll(focusedTop).toBe(from + 32);
    await page.keyboard.press('ArrowUp');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(/^Question 7:/);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('node-panel').locator('[data-field="question"] .value').textContent())
      .toBe('Question 7: what about part 7 of the plan?');
    expect(await card(page, 'Question 7: what about part 7 of the plan?').getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'big-04-outline');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Outline', exact: true }).click();
  });

  it('should find goals and conclusions too, say which of them matched, and jump to their question', async () => {
    await call(server.api.client, SET_CONCLUSION, {
      input: { nodeId: ids[1500]!, conclusion: 'Rent the corner unit by the station.', kind: 'DECISION' },
    });
    const search = page.locator('#map-search');
    const found = (query: string) =>
      expect.poll(async () => {
        await search.fill(query);
        return [
          ...(await page.getByTestId('search-count').allTextContents()),
          ...(await page.getByRole('option').locator('.where').allTextContents()),
        ];
      });
    await found('goal 1998').toEqual(['1 found', expect.stringMatching(/^Goal:\s*Goal 1998$/)]);
    await search.press('Enter');
    const goal = card(page, 'Question 1998: what about part 1998 of the plan?');
    await expect.poll(() => goal.getAttribute('aria-selected')).toBe('true');

    // A conclusion written from another place arrives live and is found too.
    await found('corner unit').toEqual([
      '1 found',
      expect.stringMatching(/^Conclusion:\s*Rent the corner unit by the station\.$/),
    ]);
    await screenshot(page, 'big-03b-search-conclusion');
    await search.press('Enter');
    const concluded = card(page, 'Question 1500: what about part 1500 of the plan?');
    await expect.poll(() => concluded.getAttribute('aria-selected')).toBe('true');
    expect(await concluded.getAttribute('class')).toContain('current');
    await search.press('Escape');
    await search.press('Escape');
    await page.getByTestId('node-panel').getByRole('button', { name: 'Close the details' }).click();
  });

  it('should move the map to where the minimap is clicked', async () => {
    const minimap = (await page.getByTestId('minimap').boundingBox())!;
    const before = await viewportOf(page);
    await page.mouse.click(minimap.x + minimap.width / 2, minimap.y + minimap.height - 4);
    const after = await viewportOf(page);
    expect(after.y).not.toBe(before.y);
    expect(after.k).toBe(before.k);
  });

  it.each([
    ['zh-CN', 'zh', 'desktop'],
    ['en-US', 'en', 'phone'],
    ['zh-CN', 'zh', 'phone'],
  ] as const)('should search, fold, outline and fit the same in %s (%s) on a %s', async (locale, lang, screen) => {
    const say = (en: string, zh: string) => (lang === 'en' ? en : zh);
    const { page: other } = await openPage(browser, locale, screen);
    await other.goto(mapUrl);
    await card(other, 'Question 0: what about part 0 of the plan?').waitFor();
    const search = other.locator('#map-search');
    await search.fill('goal 330');
    await other
      .getByRole('option')
      .filter({ hasText: say('Goal:', '目标：') })
      .waitFor();
    // The field that matched, with the language's own colon (Chinese's full-width one takes no space after it).
    expect(await other.getByRole('option').first().locator('.where').textContent()).toBe(
      say('Goal: Goal 330', '目标：Goal 330'),
    );
    await screenshot(other, `big-${lang}-${screen}-01-search`);
    await search.press('Enter');
    await other
      .getByTestId('node-panel')
      .getByRole('button', { name: say('Close the details', '关闭详情') })
      .click();
    await search.press('Escape');
    await search.press('Escape');

    // The found question, folded.
    const found = card(other, 'Question 330: what about part 330 of the plan?');
    await found.locator('[data-fold]').click();
    await expect.poll(() => found.getAttribute('aria-expanded')).toBe('false');
    await screenshot(other, `big-${lang}-${screen}-02-fold`);

    const outlineButton =
      screen === 'phone'
        ? other.getByTestId('view-switch')
        : other.getByRole('button', { name: say('Outline', '大纲'), exact: true });
    await outlineButton.click();
    await other.getByTestId('outline').getByRole('treeitem').first().waitFor();
    await screenshot(other, `big-${lang}-${screen}-03-outline`);
    await outlineButton.click();

    await other.getByRole('button', { name: say('Fit the map', '适应窗口') }).click();
    await expect.poll(() => other.getByTestId('viewport').getAttribute('data-detail')).toBe('overview');
    // Two thousand nodes fitted whole: too small for a whole percentage, not nothing.
    expect(await other.locator('.zoom').textContent()).toBe('<1%');
    await screenshot(other, `big-${lang}-${screen}-04-fit`);
    await other.context().close();
  });
});
