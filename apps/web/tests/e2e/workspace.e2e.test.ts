import { readFileSync } from 'node:fs';
import { CREATE_MAP, CREATE_NODE, POST_MESSAGE, UPDATE_MAP } from '@thinkingmap/client';
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

  it('should take a new map from the person’s problem through correction, decomposition (with one edit) and a question to the root concluding by itself', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${server.origin}/`);
    await page.getByRole('link', { name: 'New map' }).first().click();
    await page.getByLabel('Title').fill('Agents at work');
    await page.getByLabel('The problem').fill('Open a café?');
    await page.getByRole('button', { name: 'Create the map' }).click();
    await page.waitForURL(/\/maps\/(?!new$)[^/]+$/);
    const understanding = page.getByTestId('understanding');
    await understanding.getByTestId('understood-problem').getByText(ROOT_QUESTION).waitFor({ timeout: 15_000 });
    await page.getByLabel('What is different?').fill('It would be a second café, next to my first one');
    await page.getByRole('button', { name: 'Correct it' }).click();
    await understanding.getByTestId('understood-problem').getByText(CORRECTED_QUESTION).waitFor({ timeout: 15_000 });
    // The exchange stays visible, also after a reload: the first restatement and the person's correction.
    await page.reload();
    await understanding.getByTestId('understood-problem').getByText(CORRECTED_QUESTION).waitFor({ timeout: 15_000 });
    expect(await understanding.getByTestId('earlier-understanding').textContent()).toContain(ROOT_QUESTION);
    expect(await understanding.getByTestId('earlier-correction').textContent()).toContain('a second café');
    await screenshot(page, '03b-understanding-exchange');
    await page.getByRole('button', { name: 'Yes, that is it' }).click();
    const ROOT = CORRECTED_QUESTION;
    await card(page, ROOT).waitFor({ timeout: 15_000 });
    await selectNode(page, ROOT);

    await page.getByRole('button', { name: 'Think with the agent' }).click();
    const review = page.getByTestId('decomposition-review');
    await review.waitFor({ timeout: 15_000 });
    expect(await review.getByTestId('proposed-sub-question').count()).toBe(2);
    await page.getByLabel('Sub-question 1', { exact: true }).fill('How big is the local coffee market?');
    await screenshot(page, '10-decomposition-review');
    await review.getByRole('button', { name: 'Approve and create' }).click();
    await card(page, 'How big is the local coffee market?').waitFor({ timeout: 15_000 });
    await card(page, 'Where should it be?').waitFor();
    await expect.poll(() => page.locator('.dependency-edges path').count()).toBe(1);
    await expect.poll(() => card(page, 'Where should it be?').getAttribute('data-status')).toBe('BLOCKED');

    await selectNode(page, 'How big is the local coffee market?');
    await page.getByRole('button', { name: 'Think with the agent' }).click();
    const question = page.getByTestId('agent-question');
    await question.getByText('What is your budget ceiling?').waitFor({ timeout: 15_000 });
    await question.getByLabel('Your answer').fill('At most 50k');
    await question.getByRole('button', { name: 'Answer' }).click();
    await page.getByTestId('agent-question').getByText('About 3,000 cups a day nearby.').waitFor({ timeout: 15_000 });
    await page.getByTestId('agent-question').getByRole('button', { name: 'Accept', exact: true }).click();
    await expect
      .poll(() => card(page, 'How big is the local coffee market?').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('COMPLETED');

    await expect
      .poll(() => card(page, 'Where should it be?').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('READY');
    await selectNode(page, 'Where should it be?');
    await page.getByRole('button', { name: 'Think with the agent' }).click();
    await page.getByTestId('agent-question').getByText('Next to the university.').waitFor({ timeout: 15_000 });
    await page.getByTestId('agent-question').getByRole('button', { name: 'Accept', exact: true }).click();

    // With both children concluded the parent concludes by itself (bottom-up); the person accepts the draft.
    await selectNode(page, ROOT);
    await page.getByTestId('agent-question').getByText('Open it, next to the university.').waitFor({ timeout: 15_000 });
    await page.getByTestId('agent-question').getByRole('button', { name: 'Accept', exact: true }).click();
    await expect.poll(() => card(page, ROOT).getAttribute('data-status'), { timeout: 15_000 }).toBe('COMPLETED');
    await page.getByTestId('conclusion').getByText('Open it, next to the university.').waitFor();
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-done')).toBe('3');
    expect(await page.getByTestId('progress').getAttribute('data-count')).toBe('3');
    await page.context().close();
  });

  it('should move a node under another parent, live in a second window, and show why a move is refused', async () => {
    const map = await call(server.api.client, CREATE_MAP, {
      input: { title: 'Staffing the café', problem: 'Who do I need?', understand: false },
    });
    const root = await call(server.api.client, CREATE_NODE, {
      input: { mapId: map.id, question: 'Who should work in the café?' },
    });
    for (const question of ['Hire a barista', 'Train the barista'])
      await call(server.api.client, CREATE_NODE, { input: { mapId: map.id, parentId: root.id, question } });
    const { page } = await openPage(browser);
    const { page: watcher } = await openPage(browser);
    await watcher.goto(`${server.origin}/maps/${map.id}`);
    await page.goto(`${server.origin}/maps/${map.id}`);
    await expect.poll(() => watcher.getByTestId('live-state').getAttribute('data-state')).toBe('live');
    expect(await card(watcher, 'Train the barista').getAttribute('aria-level')).toBe('2');

    await selectNode(page, 'Train the barista');
    await page.getByTestId('move-node').getByText('Move to…').click();
    await page.getByLabel('Search for the new parent').fill('hire');
    await page.getByLabel('New parent', { exact: true }).selectOption({ label: 'Hire a barista' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(() => page.getByTestId('node-panel').locator('.crumb').textContent()).toContain('Hire a barista');
    await expect.poll(() => card(page, 'Train the barista').getAttribute('aria-level')).toBe('3');
    await expect.poll(() => card(watcher, 'Train the barista').getAttribute('aria-level')).toBe('3');
    await screenshot(page, '13-node-moved');

    await selectNode(page, 'Hire a barista');
    await page.getByTestId('move-node').getByText('Move to…').click();
    await page.getByLabel('New parent', { exact: true }).selectOption({ label: 'Train the barista' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page
      .getByTestId('move-refusal')
      .getByText('Refused: a node cannot be moved under itself or its own descendant')
      .waitFor();
    expect(await card(page, 'Hire a barista').getAttribute('aria-level')).toBe('2');
    await screenshot(page, '14-move-refused');
    await watcher.context().close();
    await page.context().close();
  });

  it('should reject a proposal with another strategy, then cancel the waiting run and leave the node ready', async () => {
    const map = await call(server.api.client, CREATE_MAP, {
      input: { title: 'Opening hours', problem: 'When to open?', understand: false },
    });
    await call(server.api.client, CREATE_NODE, { input: { mapId: map.id, question: 'When should the café open?' } });
    const { page } = await openPage(browser);
    await page.goto(`${server.origin}/maps/${map.id}`);
    await selectNode(page, 'When should the café open?');

    await page.getByRole('button', { name: 'Think with the agent' }).click();
    const review = page.getByTestId('decomposition-review');
    await review.waitFor({ timeout: 15_000 });
    await review.getByPlaceholder('Feedback for another proposal').fill('Split by weekday and weekend');
    await review.getByLabel('Strategy for the next proposal').selectOption('PARALLEL');
    await screenshot(page, '15-reject-with-strategy');
    await review.getByRole('button', { name: 'Reject' }).click();
    await expect
      .poll(() => review.getByPlaceholder('Feedback for another proposal').inputValue(), { timeout: 15_000 })
      .toBe('');
    await page.getByTestId('decomposition-review').waitFor({ timeout: 15_000 });

    await page.getByTestId('running-step').getByText('Waiting for your answer').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await expect.poll(() => page.getByTestId('running-step').count(), { timeout: 15_000 }).toBe(0);
    await expect
      .poll(() => card(page, 'When should the café open?').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('READY');
    expect(await page.getByTestId('decomposition-review').count()).toBe(0);
    expect(await page.getByTestId('panel-status').textContent()).toContain('Ready');
    await page.context().close();
  });

  it('should draw the levels of a divergent map', async () => {
    const map = await call(server.api.client, CREATE_MAP, {
      input: { title: 'Ideas for the café name', mode: 'DIVERGENT', understand: false },
    });
    const root = await call(server.api.client, CREATE_NODE, {
      input: { mapId: map.id, question: 'What should the café be called?' },
    });
    const placed: [string, number, 'TASK' | 'SUMMARY' | 'FINAL'][] = [];
    for (const [question, level, role] of [
      ['Names from the street', 1, 'TASK'],
      ['Names from coffee words', 1, 'TASK'],
      ['Names from the neighbourhood history', 1, 'TASK'],
      ['Level 1 summary: place names work best', 2, 'SUMMARY'],
      ['Final: “Station Beans”', 3, 'FINAL'],
    ] as const) {
      const node = await call(server.api.client, CREATE_NODE, {
        input: { mapId: map.id, parentId: level === 1 ? root.id : placed.at(-1)![0], question },
      });
      placed.push([node.id, level, role]);
    }
    // Levels and roles are written by the divergent agent; place them directly, then touch the map through the API.
    for (const [id, divergentLevel, divergentRole] of placed)
      await server.db.write((tx) => tx.node.update({ where: { id }, data: { divergentLevel, divergentRole } }));
    await call(server.api.client, UPDATE_MAP, { input: { id: map.id, title: 'Ideas for the café name' } });

    const { page } = await openPage(browser);
    await page.goto(`${server.origin}/maps/${map.id}`);
    await card(page, 'Names from the street').waitFor();
    expect(await page.locator('.level').evaluateAll((bands) => bands.map((b) => b.getAttribute('data-level')))).toEqual(
      ['1', '2', '3'],
    );
    expect(await card(page, 'Level 1 summary: place names work best').locator('.status').textContent()).toContain(
      'Ready',
    );
    expect(await card(page, 'Level 1 summary: place names work best').locator('.detail').textContent()).toContain(
      'summary',
    );
    await screenshot(page, '12-divergent-levels');
    await page.context().close();
  });
});
