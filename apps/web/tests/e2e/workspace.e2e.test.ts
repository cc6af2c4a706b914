import { readFileSync } from 'node:fs';
import { CREATE_NODE, POST_MESSAGE } from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, launchBrowser, openPage, screenshot, screenshotIfFailed, selectNode } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { CORRECTED_QUESTION, ROOT_QUESTION } from './helpers/scripted-model.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

/** Adds a sub-question to the selected node through the panel. */
async function addChild(page: Page, question: string) {
  await page.getByLabel('Add a sub-question').fill(question);
  await page.getByLabel('Add a sub-question').press('Enter');
  await card(page, question).waitFor();
}

async function liveState(page: Page) {
  const el = page.getByTestId('live-state');
  return {
    state: await el.getAttribute('data-state'),
    seq: Number(await el.getAttribute('data-seq')),
    applied: Number(await el.getAttribute('data-applied')),
    loadedSeq: Number(await el.getAttribute('data-loaded-seq')),
  };
}

describe.skipIf(!run)('web workspace in Chromium against the real server', () => {
  let server: WebServer;
  let browser: Browser;
  let first: Page;
  let mapUrl = '';

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    first = (await openPage(browser)).page;
  });

  afterEach((context) => screenshotIfFailed(first, context.task, 'failed'));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('should create a map through problem understanding (correct, then confirm), build its tree and edit a question in place', async () => {
    await first.goto(`${server.origin}/`);
    await first.getByText('No maps yet').waitFor();
    await screenshot(first, '01-map-list-empty');

    await first.getByRole('link', { name: 'New map' }).first().click();
    await first.getByLabel('Title').fill('Open a neighbourhood café');
    await first.getByLabel('The problem').fill('I want to open a café near home. Is it worth it?');
    await first.getByLabel('Goal').fill('Decide within a month, with numbers');
    await first.getByLabel('Constraints').fill('Budget under 50k\nKeep my day job for a year');
    await screenshot(first, '02-new-map');
    await first.getByRole('button', { name: 'Create the map' }).click();

    await first.waitForURL(/\/maps\/(?!new$)[^/]+$/);
    mapUrl = first.url();
    await expect.poll(() => first.getByTestId('live-state').getAttribute('data-state')).toBe('live');

    // The agent restates the problem; the person corrects it once, then confirms; the root question follows.
    const understanding = first.getByTestId('understanding');
    await understanding.getByTestId('understood-problem').getByText(ROOT_QUESTION).waitFor({ timeout: 15_000 });
    await screenshot(first, '03-problem-understanding');
    await first.getByLabel('What is different?').fill('Actually it is a second café, next to my first one');
    await first.getByRole('button', { name: 'Correct it' }).click();
    await understanding.getByTestId('understood-problem').getByText(CORRECTED_QUESTION).waitFor({ timeout: 15_000 });
    await first.getByRole('button', { name: 'Yes, that is it' }).click();
    await card(first, CORRECTED_QUESTION).waitFor({ timeout: 15_000 });
    await selectNode(first, CORRECTED_QUESTION);
    await addChild(first, 'Is there demand?');
    await addChild(first, 'What will it cost?');
    await addChild(first, 'Where could it be?');
    await selectNode(first, 'Is there demand?');
    await addChild(first, 'How many people pass by?');

    await first.getByRole('button', { name: 'Edit: Question' }).click();
    await first.locator('#edit-question').fill('Is there enough demand?');
    await first.getByRole('button', { name: 'Save' }).click();
    await card(first, 'Is there enough demand?').waitFor();
    expect(await first.locator('[role=treeitem]').count()).toBe(5);
    expect(await first.locator('.tree-edges path').count()).toBe(4);
  });

  it('should draw a dependency, say what a blocked node waits for and release it when concluded', async () => {
    await selectNode(first, 'What will it cost?');
    await first.getByLabel('Search questions', { exact: true }).fill('where');
    await first.getByRole('button', { name: 'Add', exact: true }).first().click();
    await expect.poll(() => first.locator('.dependency-edges path').count()).toBe(1);
    await expect.poll(() => first.getByTestId('blocked-notice').textContent()).toContain('Where could it be?');
    // The tree itself says what the node waits for (its accessible name and the badge's tooltip).
    expect(
      await first.getByRole('treeitem', { name: /^What will it cost\?.*waits for “Where could it be\?”/ }).count(),
    ).toBe(1);
    expect(await card(first, 'What will it cost?').getByTestId('waits-for').getAttribute('title')).toContain(
      'Where could it be?',
    );

    await first.getByLabel('Search questions', { exact: true }).fill('');
    await first.getByLabel('Context to consider').fill('Rent near the station is about 3k a month.');
    await first.getByRole('button', { name: 'Add', exact: true }).nth(2).click();
    await first.getByTestId('context-items').getByText('Rent near the station').waitFor();

    await first.getByRole('tab', { name: /Decompose/ }).click();
    await first.getByLabel('Your message').fill('Split this into fixed and running costs.');
    await first.getByRole('button', { name: 'Send' }).click();
    await first.getByTestId('message').getByText('Split this into fixed and running costs.').waitFor();
    await screenshot(first, '04-workspace-blocked-node');

    await selectNode(first, 'Where could it be?');
    await first.getByRole('button', { name: 'Conclude' }).click();
    await first.locator('#conclusion-text').fill('Near the station: most foot traffic.');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByTestId('conclusion').getByText('Near the station').waitFor();
    await expect.poll(() => card(first, 'Where could it be?').getAttribute('data-status')).toBe('COMPLETED');
    await selectNode(first, 'What will it cost?');
    await expect.poll(() => first.getByTestId('blocked-notice').count()).toBe(0);
  });

  it('should refuse a dependency cycle in the UI and show its path', async () => {
    await selectNode(first, 'Where could it be?');
    await first.getByLabel('Search questions', { exact: true }).fill('cost');
    await first.getByRole('button', { name: 'Add', exact: true }).first().click();
    const refusal = first.getByTestId('dependency-refusal');
    await refusal.getByText('Refused: that would close a cycle').waitFor();
    const steps = await first.getByTestId('cycle-path').locator('li').allTextContents();
    expect(steps).toContain('What will it cost?');
    expect(steps).toContain('Where could it be?');
    expect(await first.locator('.dependency-edges path:not(.refused)').count()).toBe(1);
    // The canvas shows the cycle: its cards and its edge in red, and the refused edge dashed between them.
    await first.getByTestId('refused-edge').waitFor();
    expect(await card(first, 'What will it cost?').getAttribute('class')).toContain('in-cycle');
    expect(await card(first, 'Where could it be?').getAttribute('class')).toContain('in-cycle');
    expect(await card(first, 'Is there enough demand?').getAttribute('class')).not.toContain('in-cycle');
    expect(await first.locator('.dependency-edges path.cycle').count()).toBe(1);
    await screenshot(first, '05-cycle-refused');
    await refusal.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => first.getByTestId('refused-edge').count()).toBe(0);
    expect(await first.locator('.card.in-cycle').count()).toBe(0);
  });

  it('should move through the tree with the keyboard and export Markdown', async () => {
    await first.locator('[role=treeitem][tabindex="0"]').focus();
    await first.keyboard.press('Home');
    await first.keyboard.press('ArrowRight');
    await first.keyboard.press('Enter');
    await expect
      .poll(() => first.getByTestId('node-panel').locator('[data-field="question"] .value').textContent())
      .toBe('Is there enough demand?');
    // Enter took the focus into the panel; Escape closes it and gives the focus back to the card.
    await expect
      .poll(() => first.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('node-panel');
    await first.keyboard.press('Escape');
    await expect.poll(() => first.getByTestId('node-panel').count()).toBe(0);
    await expect
      .poll(() => first.evaluate(() => document.activeElement?.querySelector('.question')?.textContent))
      .toBe('Is there enough demand?');
    await first.keyboard.press('ArrowDown');
    await first.keyboard.press('Enter');
    await expect
      .poll(() => first.getByTestId('node-panel').locator('[data-field="question"] .value').textContent())
      .toBe('What will it cost?');

    await first.getByTestId('export-menu').click();
    const [download] = await Promise.all([
      first.waitForEvent('download'),
      first.getByRole('menuitem', { name: 'Markdown (.md)' }).click(),
    ]);
    const markdown = readFileSync((await download.path())!, 'utf8');
    expect(markdown).toMatch(/^# \S/);
    expect(markdown).toContain(`**${CORRECTED_QUESTION}**`);
    expect(markdown).toMatch(/- \[x\] \*\*Where could it be\?\*\*/);
    expect(markdown).toContain('Near the station: most foot traffic.');
    expect(markdown).toContain('Waits for: “Where could it be?”');
  });

  it('should keep a second browser context in step, both ways', async () => {
    const { page: second } = await openPage(browser);
    await second.goto(mapUrl);
    await expect.poll(() => second.getByTestId('live-state').getAttribute('data-state')).toBe('live');
    await selectNode(first, 'Is there enough demand?');
    await addChild(first, 'Who are the competitors?');
    await card(second, 'Who are the competitors?').waitFor();

    await selectNode(second, 'Who are the competitors?');
    await second.getByRole('button', { name: 'Edit: Goal' }).click();
    await second.locator('#edit-goal').fill('List every café within 500 m');
    await second.getByRole('button', { name: 'Save' }).click();
    await selectNode(first, 'Who are the competitors?');
    await first.locator('[data-field="goal"] .value').getByText('List every café within 500 m').waitFor();
    await screenshot(second, '06-second-window');
    await second.context().close();
  });

  it('should show a stale edit as a conflict with the current text and lose nothing typed', async () => {
    const { page: second } = await openPage(browser);
    await second.goto(`${mapUrl}`);
    await selectNode(second, 'Who are the competitors?');
    await selectNode(first, 'Who are the competitors?');

    await first.getByRole('button', { name: 'Edit: Goal' }).click();
    await first.locator('#edit-goal').fill('Count cafés and their prices');
    await second.getByRole('button', { name: 'Edit: Goal' }).click();
    await second.locator('#edit-goal').fill('Map competitors on a street plan');
    await second.getByRole('button', { name: 'Save' }).click();
    await first.locator('[data-node-id]').first().waitFor();
    await expect
      .poll(() =>
        first
          .getByTestId('node-panel')
          .getByText(/version \d+/)
          .textContent(),
      )
      .toMatch(/version 3/);

    await first.getByRole('button', { name: 'Save' }).click();
    const conflict = first.getByTestId('conflict');
    await conflict.getByText('Someone else changed this first').waitFor();
    expect(await conflict.getByTestId('conflict-current').textContent()).toBe('Map competitors on a street plan');
    expect(await first.locator('#edit-goal').inputValue()).toBe('Count cafés and their prices');
    await screenshot(first, '07-stale-edit-conflict');

    await first.getByRole('button', { name: 'Save mine over it' }).click();
    await first.locator('[data-field="goal"] .value').getByText('Count cafés and their prices').waitFor();
    await second.locator('[data-field="goal"] .value').getByText('Count cafés and their prices').waitFor();
    await second.context().close();
  });

  it('should resume after the socket is dropped without losing or repeating events', async () => {
    const { page: watcher } = await openPage(browser);
    // 1012 (service restart) is what a restarting server or proxy sends; graphql-ws reconnects after it.
    let blocked = false;
    let refused = 0;
    const sockets: { close(options?: { code?: number; reason?: string }): Promise<void> }[] = [];
    await watcher.routeWebSocket(/\/graphql$/, (ws) => {
      if (blocked) {
        refused += 1;
        return void ws.close({ code: 1012, reason: 'test: network down' });
      }
      ws.connectToServer();
      sockets.push(ws);
    });
    await watcher.goto(mapUrl);
    await expect.poll(() => watcher.getByTestId('live-state').getAttribute('data-state')).toBe('live');
    await selectNode(watcher, 'Is there enough demand?');

    blocked = true;
    await Promise.all(sockets.splice(0).map((ws) => ws.close({ code: 1012, reason: 'test: drop' })));
    await expect.poll(() => watcher.getByTestId('live-state').getAttribute('data-state')).toBe('reconnecting');

    const mapId = mapUrl.split('/').pop()!;
    const parent = (await card(watcher, 'Is there enough demand?').getAttribute('data-node-id'))!;
    for (const question of ['Asked while offline 1', 'Asked while offline 2']) {
      await call(server.api.client, CREATE_NODE, { input: { mapId, parentId: parent, question } });
    }
    await call(server.api.client, POST_MESSAGE, {
      input: { nodeId: parent, conversation: 'DECOMPOSE', content: 'Posted while the socket was down' },
    });
    // The workspace has tried to reconnect while the network was down, and was refused.
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThan(0);
    blocked = false;

    await card(watcher, 'Asked while offline 2').waitFor({ timeout: 15_000 });
    await watcher.getByTestId('message').getByText('Posted while the socket was down').waitFor();
    const state = await liveState(watcher);
    expect(state.state).toBe('live');
    expect(state.applied).toBe(state.seq - state.loadedSeq);
    expect(await watcher.locator('[role=treeitem]').count()).toBe(8);
    expect(await watcher.getByTestId('message').getByText('Posted while the socket was down').count()).toBe(1);

    // Live again: a change made now arrives without a reload.
    await call(server.api.client, CREATE_NODE, {
      input: { mapId, parentId: parent, question: 'Asked after the reconnect' },
    });
    await card(watcher, 'Asked after the reconnect').waitFor();
    await watcher.context().close();
  });

  it('should switch the interface to Chinese and default to it for a Chinese browser', async () => {
    const { page: zh } = await openPage(browser, 'zh-CN');
    await zh.goto(mapUrl);
    await zh.getByRole('link', { name: '新建导图' }).waitFor();
    await selectNode(zh, 'What will it cost?');
    await zh.getByRole('tab', { name: /拆解/ }).waitFor();
    await screenshot(zh, '08-workspace-zh');
    await zh.getByRole('button', { name: 'English' }).click();
    await zh.getByRole('link', { name: 'New map' }).waitFor();
    await zh.context().close();

    await first.goto(`${server.origin}/`);
    await first.getByTestId('map-card').first().waitFor();
    await screenshot(first, '09-map-list');
  });
});
