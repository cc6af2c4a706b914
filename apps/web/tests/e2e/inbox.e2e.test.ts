import { CREATE_MAP, CREATE_NODE, INBOX, PROCESS_NODE } from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, launchBrowser, openPage, screenshot, screenshotIfFailed, smallTargets } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

/**
 * Lets the test say that the person looks at another window (`document.hasFocus()` false), and records the
 * browser notifications the page shows (the real Notification is still created).
 */
const WATCH_NOTIFICATIONS = () => {
  const w = window as unknown as { __away: boolean; __notes: { title: string; body: string }[] };
  w.__away = false;
  w.__notes = [];
  const hasFocus = document.hasFocus.bind(document);
  document.hasFocus = () => !w.__away && hasFocus();
  const Real = window.Notification;
  class Recorded extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      w.__notes.push({ title, body: options?.body ?? '' });
    }
  }
  window.Notification = Recorded as typeof Notification;
};

/** What the page does when the person comes back to its window. */
const comeBack = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));

describe.skipIf(!run)('the inbox of the agents’ questions', () => {
  let server: WebServer;
  let browser: Browser;
  let cafe: Awaited<ReturnType<typeof createMapWithTree>>;
  let hiring: Awaited<ReturnType<typeof createMapWithTree>>;
  let page: Page;

  /** Has the agent ask the person something about `nodeId` (a clarifying question). */
  const ask = (nodeId: string) => call(server.api.client, PROCESS_NODE, { nodeId, intent: 'CLARIFY' });

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    cafe = await createMapWithTree(server.api, 'Open a café', {
      'Should I open a café?': { 'What will it cost?': {}, 'Where should it be?': {} },
    });
    hiring = await createMapWithTree(server.api, 'Hire a barista', { 'Who should I hire?': {} });
    const opened = await openPage(browser);
    await opened.context.grantPermissions(['notifications'], { origin: server.origin });
    await opened.page.addInitScript(WATCH_NOTIFICATIONS);
    page = opened.page;
  });

  afterEach((context) => screenshotIfFailed(page, context.task, 'failed-inbox'));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('should count the questions of every map in the header, the tab title and the map cards', async () => {
    await page.goto(`${server.origin}/`);
    await page.getByTestId('map-card').nth(1).waitFor();
    expect(await page.getByTestId('inbox-button').getAttribute('data-count')).toBe('0');
    expect(await page.title()).toBe('Your thinking maps · ThinkingMap');

    await ask(hiring.ids.get('Who should I hire?')!);
    // The person comes back to the tab: the inbox looks again and finds the new question (no timer involved).
    await expect
      .poll(async () => {
        await comeBack(page);
        return page.getByTestId('inbox-button').getAttribute('data-count');
      })
      .toBe('1');
    expect(await page.title()).toBe('(1) Your thinking maps · ThinkingMap');
    const hiringCard = page.getByTestId('map-card').filter({ hasText: 'Hire a barista' });
    expect(await hiringCard.getByTestId('map-card-questions').textContent()).toContain('1 waiting for you');
    expect(
      await page.getByTestId('map-card').filter({ hasText: 'Open a café' }).getByTestId('map-card-questions').count(),
    ).toBe(0);
    // A question that arrives is also said in a toast that leads to it.
    await page.getByTestId('toast').filter({ hasText: 'An agent asks on “Hire a barista”' }).waitFor();
    await screenshot(page, 'inbox-en-01-map-list');
  });

  it('should show browser notifications once turned on, when the person looks elsewhere', async () => {
    await page.getByTestId('inbox-button').click();
    const inbox = page.getByTestId('inbox');
    await inbox.getByTestId('inbox-question').filter({ hasText: 'What is your budget ceiling?' }).waitFor();
    await inbox.getByRole('button', { name: 'Notify me in the browser' }).click();
    await expect.poll(() => inbox.getByTestId('notify-toggle').getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'inbox-en-02-open');
    await page.keyboard.press('Escape');

    await page.evaluate(() => {
      (window as unknown as { __away: boolean }).__away = true;
    });
    await ask(cafe.ids.get('Should I open a café?')!);
    await expect
      .poll(async () => {
        await comeBack(page);
        return page.evaluate(() => (window as unknown as { __notes: { title: string; body: string }[] }).__notes);
      })
      .toEqual([{ title: 'ThinkingMap: an agent asks on “Open a café”', body: 'What is your budget ceiling?' }]);
    expect(await page.getByTestId('inbox-button').getAttribute('data-count')).toBe('2');
    await page.evaluate(() => {
      (window as unknown as { __away: boolean }).__away = false;
    });
  });

  it('should open a question at its node, with what to answer at the top of the panel', async () => {
    await page.getByTestId('inbox-button').click();
    await page.getByTestId('inbox').locator(`a[href^="/maps/${cafe.mapId}"]`).click();
    await page.waitForURL(/\/maps\/[^/]+\?node=/);
    const panel = page.getByTestId('node-panel');
    await panel.getByTestId('agent-question').getByText('What is your budget ceiling?').waitFor();
    // The question comes first: before the agent's controls, the fields, the conversation.
    const order = await panel.evaluate((el) =>
      ['needs-you', 'agent-controls', 'message']
        .map((id) => el.querySelector(`[data-testid="${id}"]`))
        .map((found) => (found ? found.getBoundingClientRect().top : Number.POSITIVE_INFINITY)),
    );
    expect(order[0]).toBeLessThan(order[1]!);
    expect(order[0]).toBeLessThan(order[2]!);
    expect(await card(page, 'Should I open a café?').getAttribute('aria-selected')).toBe('true');
    expect(await page.title()).toBe('(2) Open a café · ThinkingMap');
    await screenshot(page, 'inbox-en-03-question-at-node');

    // Answered here, it leaves the inbox at once (the map's live feed says so).
    await panel.getByLabel('Your answer').fill('At most 50k');
    await panel.getByRole('button', { name: 'Answer', exact: true }).click();
    // (The agent goes on and may soon ask something else on this map: the answered question is what must go.)
    await page.getByTestId('inbox-button').click();
    const answered = page
      .getByTestId('inbox')
      .locator(`a[href^="/maps/${cafe.mapId}"]`)
      .filter({ hasText: 'What is your budget ceiling?' });
    await expect.poll(() => answered.count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('should count a question asked on the open map at once, and toast it when it is about another node', async () => {
    const where = cafe.ids.get('Where should it be?')!;
    await ask(where);
    // No focus, no reload: the open map's feed brings it to the inbox, and a toast leads to it.
    await page.getByTestId('toast').locator(`a[href$="node=${where}"]`).waitFor();
    await page.getByTestId('inbox-button').click();
    await page.getByTestId('inbox').locator(`a[href$="node=${where}"]`).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => card(page, 'Where should it be?').getAttribute('data-status')).toBe('WAITING');
  });

  it('should tell two maps of one title apart by their problems, and each question by when it was asked', async () => {
    const twin = await call(server.api.client, CREATE_MAP, {
      input: { title: 'Hire a barista', problem: 'Someone for the weekend shifts only', understand: false },
    });
    const root = await call(server.api.client, CREATE_NODE, {
      input: { mapId: twin.id, question: 'Who works weekends?' },
    });
    await ask(root.id);
    await page.goto(`${server.origin}/`);
    await page.getByTestId('inbox-button').click();
    const inbox = page.getByTestId('inbox');
    await expect
      .poll(() => inbox.getByTestId('inbox-problem').allTextContents())
      .toContain('Someone for the weekend shifts only');
    expect(await inbox.locator('h3').filter({ hasText: 'Hire a barista' }).count()).toBe(2);
    expect(await inbox.getByTestId('inbox-map-updated').first().textContent()).toMatch(/^updated \S/);
    const asked = await inbox.getByTestId('inbox-asked').allTextContents();
    expect(asked.length).toBe(await inbox.getByTestId('inbox-question').count());
    for (const text of asked) expect(text).toMatch(/^Asked \S/);
    await screenshot(page, 'inbox-en-02-same-title');
    await page.keyboard.press('Escape');
  });

  it.each([
    ['zh-CN', 'zh', 'desktop'],
    ['en-US', 'en', 'phone'],
    ['zh-CN', 'zh', 'phone'],
  ] as const)('should show the inbox in %s (%s) on a %s', async (locale, lang, screen) => {
    const { page: other } = await openPage(browser, locale, screen);
    await other.goto(`${server.origin}/`);
    const waiting = (await call(server.api.client, INBOX)).pendingQuestions.length;
    await expect.poll(() => other.getByTestId('inbox-button').getAttribute('data-count')).toBe(String(waiting));
    if (screen === 'phone') {
      // The map cards' "waiting for you" links and every other control take a tap (24 px at least).
      await other.getByTestId('map-card-questions').first().waitFor();
      expect(await smallTargets(other)).toEqual([]);
    }
    await other.getByTestId('inbox-button').click();
    await other.getByTestId('inbox-question').first().waitFor();
    await screenshot(other, `inbox-${lang}-${screen}`);
    await other.keyboard.press('Escape');

    // A question that arrives while the person is on the map list: the toast that leads to it.
    const title = `Toast ${lang} ${screen}`;
    const { ids } = await createMapWithTree(server.api, title, { 'Which beans should I buy?': {} });
    await ask(ids.get('Which beans should I buy?')!);
    const toast = other.getByTestId('toast').filter({ hasText: title });
    await expect
      .poll(async () => {
        await comeBack(other);
        return toast.count();
      })
      .toBe(1);
    expect(await toast.textContent()).toContain(lang === 'en' ? 'An agent asks on' : '智能体');
    await screenshot(other, `inbox-${lang}-${screen}-toast`);
    await other.context().close();
  });
});
