import { ADD_DEPENDENCY, NODE, SET_CONCLUSION } from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import {
  card,
  focusedTestId,
  launchBrowser,
  openPage,
  type ScreenName,
  screenshot,
  screenshotIfFailed,
  selectNode,
  seriousViolations,
} from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

describe.skipIf(!run)('accessibility and language', () => {
  let server: WebServer;
  let browser: Browser;
  let page: Page;
  let mapUrl = '';
  let ids: Map<string, string>;

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    const created = await createMapWithTree(server.api, 'Accessible café', {
      'Should I open a café?': {
        'Where should it be?': { 'Near the station?': {} },
        'What will it cost?': {},
        'Who will work there?': {},
      },
    });
    ids = created.ids;
    await call(server.api.client, ADD_DEPENDENCY, {
      nodeId: ids.get('What will it cost?')!,
      dependsOnId: ids.get('Where should it be?')!,
    });
    mapUrl = `${server.origin}/maps/${created.mapId}`;
    page = (await openPage(browser)).page;
  });

  afterEach((context) => screenshotIfFailed(page, context.task, 'failed-a11y'));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each([
    ['en-US', 'desktop'],
    ['zh-CN', 'desktop'],
    ['en-US', 'phone'],
    ['zh-CN', 'phone'],
  ] as const)(
    'should have no serious or critical axe violation on the main screens (%s, %s)',
    async (locale, screen) => {
      const { page: p } = await openPage(browser, locale, screen as ScreenName);
      const check = async (what: string, within?: string) =>
        expect(await seriousViolations(p, within), `${what} (${locale}, ${screen})`).toEqual([]);
      await p.goto(`${server.origin}/`);
      await p.getByTestId('map-card').first().waitFor();
      await check('the map list');
      await p.getByTestId('inbox-button').click();
      await p.getByTestId('inbox').waitFor();
      await check('the inbox', '[data-testid="inbox"]');
      await p.keyboard.press('Escape');
      await p.goto(`${server.origin}/dashboard`);
      await p.getByTestId('count-maps').waitFor();
      await check('the dashboard');
      await p.goto(`${server.origin}/signin`);
      await p.locator('main').waitFor();
      await check('the sign-in page');
      await p.goto(`${server.origin}/maps/new`);
      await p.locator('#map-title').waitFor();
      await check('the new-map form');
      await p.goto(`${mapUrl}?node=${ids.get('What will it cost?')}`);
      await p.getByTestId('node-panel').locator('[data-field="question"] .value').waitFor();
      await check('the workspace with a node open');
      await p.getByTestId('history-toggle').click();
      await p.getByTestId('history-panel').waitFor();
      await check('the history panel', '[data-testid="history-panel"]');
      await p.getByTestId('critic-toggle').click();
      await p.getByTestId('critic-panel').waitFor();
      await check('the review panel', '[data-testid="critic-panel"]');
      await p.getByTestId('critic-toggle').click();
      await p.getByTestId('export-menu').click();
      await p.getByRole('menu').waitFor();
      await check('the export menu', '[role="menu"]');
      await p.keyboard.press('Escape');
      if (screen === 'desktop') await p.getByRole('button', { name: /^(Outline|大纲)$/ }).click();
      else await p.getByTestId('view-switch').click();
      await p.getByTestId('outline').waitFor();
      await check('the outline');
      await p.context().close();
    },
  );

  it('should expose the map as a tree of tree items, not as an image', async () => {
    await page.goto(mapUrl);
    await card(page, 'What will it cost?').waitFor();
    const tree = page.getByRole('tree', { name: 'Thinking tree' });
    expect(await tree.getByRole('treeitem').count()).toBe(5);
    const snapshot = await tree.ariaSnapshot();
    expect(snapshot).toMatch(/^- tree "Thinking tree"/);
    // Each item is named by what the card shows, and a blocked one also by what it waits for.
    expect(snapshot).toMatch(/treeitem "What will it cost\? Blocked 1 Blocked: waits for “Where should it be\?”"/);
    expect(
      await page
        .locator('[role=treeitem]')
        .evaluateAll((items) => items.filter((el) => el.closest('[role=img], svg')).length),
    ).toBe(0);
    const root = card(page, 'Should I open a café?');
    expect(await root.getAttribute('aria-level')).toBe('1');
    expect(await root.getAttribute('aria-expanded')).toBe('true');
    expect(await card(page, 'Who will work there?').getAttribute('aria-posinset')).toBe('3');
    expect(await card(page, 'Who will work there?').getAttribute('aria-setsize')).toBe('3');
  });

  it('should offer a skip link first, move into the panel with Enter and close it with Escape', async () => {
    await page.goto(mapUrl);
    await card(page, 'What will it cost?').waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to the content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    await card(page, 'Where should it be?').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('node-panel');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('node-panel').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.querySelector('.question')?.textContent)).toBe(
      'Where should it be?',
    );
  });

  it('should draw the same focus ring on cards, buttons and links', async () => {
    await page.goto(mapUrl);
    await card(page, 'Where should it be?').waitFor();
    const ring = async () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
      });
    await card(page, 'Where should it be?').focus();
    await page.keyboard.press('ArrowDown');
    const onCard = await ring();
    await page.getByRole('button', { name: 'Zoom in' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const onButton = await ring();
    expect(onCard).toBe('solid 3px rgb(79, 70, 229)');
    expect(onButton).toBe(onCard);
  });

  it('should announce a status change in the live region', async () => {
    await page.goto(mapUrl);
    await card(page, 'Near the station?').waitFor();
    await call(server.api.client, SET_CONCLUSION, {
      input: { nodeId: ids.get('Near the station?')!, conclusion: 'Yes, by the exit.', kind: 'DECISION' },
    });
    await expect
      .poll(() => page.getByTestId('announcer').locator('p').allTextContents())
      .toContain('“Near the station?” is now Concluded');
  });

  it('should explain next to “Think with the agent” what a blocked node waits for, and not offer “Sign in” to the local user', async () => {
    await page.goto(mapUrl);
    await selectNode(page, 'What will it cost?');
    const think = page.getByRole('button', { name: 'Think with the agent' });
    // A run started on it waits for its dependencies and begins by itself: the button stays available.
    expect(await think.isDisabled()).toBe(false);
    const why = page.getByTestId('run-blocked');
    expect(await why.textContent()).toContain('Waits for “Where should it be?”');
    expect(await think.getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
    expect(await page.getByTestId('viewer').textContent()).toBe('Signed in as local user');
    expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
  });

  it('should offer neither “Sign in” nor the local user while the first viewer read fails, and the local user once it answers', async () => {
    const { page: cut } = await openPage(browser);
    // Remembers whether a "Sign in" link ever appeared in the header, however briefly.
    await cut.addInitScript(() => {
      const seen = window as unknown as { signInShown: boolean };
      seen.signInShown = false;
      new MutationObserver(() => {
        if (document.querySelector('header a[href="/signin"]')) seen.signInShown = true;
      }).observe(document, { childList: true, subtree: true });
    });
    await cut.route('**/graphql', (route) =>
      route.request().postData()?.includes('query Viewer') ? route.abort('internetdisconnected') : route.continue(),
    );
    await cut.goto(mapUrl);
    await card(cut, 'Where should it be?').waitFor();
    expect(await cut.getByTestId('viewer').count()).toBe(0);
    expect(await cut.getByRole('link', { name: 'Sign in' }).count()).toBe(0);

    await cut.unroute('**/graphql');
    await cut.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => cut.getByTestId('viewer').textContent()).toBe('Signed in as local user');
    expect(await cut.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
    expect(await cut.evaluate(() => (window as unknown as { signInShown: boolean }).signInShown)).toBe(false);
    await cut.context().close();
  });

  it('should scroll the panel back to the top for another node, and never sideways', async () => {
    await page.goto(mapUrl);
    await selectNode(page, 'Near the station?');
    const panel = page.getByTestId('node-panel');
    await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect(await panel.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
    await panel.getByRole('button', { name: 'Where should it be?' }).first().click();
    await expect.poll(() => panel.locator('[data-field="question"] .value').textContent()).toBe('Where should it be?');
    expect(await panel.evaluate((el) => el.scrollTop)).toBe(0);
    expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  });

  it('should clear a network error by itself once the connection is back', async () => {
    await page.goto(mapUrl);
    await selectNode(page, 'Who will work there?');
    await page.route('**/graphql', (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByLabel('Context to consider').fill('Two baristas at most.');
    await page.getByRole('button', { name: 'Add', exact: true }).nth(2).click();
    const error = page.locator('[data-network="true"]');
    await error.waitFor();
    expect(await error.textContent()).toContain('The server cannot be reached');
    expect(await error.textContent()).not.toMatch(/\[Network\]|fetch|graphql/i);
    await screenshot(page, 'a11y-en-network-error');
    await page.unroute('**/graphql');
    // The page asks again by itself; the browser saying it is online makes it ask at once.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => error.count()).toBe(0);
    expect(await page.getByLabel('Context to consider').inputValue()).toBe('Two baristas at most.');
  });

  it('should speak Chinese properly: tabs, colons and no developer text in the chips', async () => {
    const { page: zh } = await openPage(browser, 'zh-CN');
    await zh.goto(mapUrl);
    await zh.getByTestId('model-label').waitFor();
    expect(await zh.getByTestId('model-label').textContent()).not.toMatch(/https?:|_KEY|OPENAI|127\.0\.0\.1/);
    await card(zh, 'Near the station?').click();
    const panel = zh.getByTestId('node-panel');
    await panel.getByRole('tab', { name: /^拆解/ }).waitFor();
    await panel.getByRole('tab', { name: /^总结/ }).waitFor();
    expect(await panel.getByRole('tab').allTextContents()).not.toContainEqual(
      expect.stringMatching(/Decompose|Conclude/),
    );
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain('所属：');
    expect(text).not.toMatch(/[\u3400-\u9fff]: /);
    await screenshot(zh, 'a11y-zh-panel');
    const node = await call(server.api.client, NODE, { id: ids.get('Near the station?')! });
    expect(node.question).toBe('Near the station?');
    await zh.context().close();
  });
});
