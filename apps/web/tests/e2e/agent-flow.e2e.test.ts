import { CREATE_MAP, CREATE_NODE, UPDATE_MAP } from '@thinkingmap/client';
import { describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, focusedTestId as focusedIn, openPage, screenshot, selectNode } from './helpers/browser.ts';
import { browserSuite } from './helpers/browser-suite.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { CORRECTED_QUESTION, ROOT_QUESTION } from './helpers/scripted-model.ts';

const run = chromiumAvailable();

describe.skipIf(!run)('working with the agents in the web workspace', () => {
  // Each test opens its own windows (and closes them).
  const suite = browserSuite(() => undefined, 'failed-agents');

  it('should take a new map from the person’s problem through correction, decomposition (with one edit) and a question to the root concluding by itself', async () => {
    const { page } = await openPage(suite.browser);
    await page.goto(`${suite.server.origin}/`);
    await page.getByRole('link', { name: 'New map' }).first().click();
    await page.getByLabel('Title').fill('Agents at work');
    await page.getByLabel('The problem').fill('Open a café?');
    await page.getByRole('button', { name: 'Create the map' }).click();
    await page.waitForURL(/\/maps\/(?!new$)[^/]+$/);
    const understanding = page.getByTestId('understanding');
    await understanding.getByTestId('understood-problem').getByText(ROOT_QUESTION).waitFor({ timeout: 15_000 });
    // Keyboard users are taken to each gate as it appears, and to what changed once they acted on it.
    await expect.poll(() => focusedIn(page)).toBe('understanding');
    await page.getByLabel('What is different?').fill('It would be a second café, next to my first one');
    await page.getByRole('button', { name: 'Correct it' }).click();
    await understanding.getByTestId('understood-problem').getByText(CORRECTED_QUESTION).waitFor({ timeout: 15_000 });
    // The exchange stays visible, also after a reload: the first restatement and the person's correction.
    await page.reload();
    await understanding.getByTestId('understood-problem').getByText(CORRECTED_QUESTION).waitFor({ timeout: 15_000 });
    expect(await understanding.getByTestId('earlier-understanding').textContent()).toContain(ROOT_QUESTION);
    expect(await understanding.getByTestId('earlier-correction').textContent()).toContain('a second café');
    await screenshot(page, '03b-understanding-exchange');
    await page.getByRole('button', { name: 'Yes, that is it' }).press('Enter');
    const ROOT = CORRECTED_QUESTION;
    await card(page, ROOT).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('treeitem');
    await selectNode(page, ROOT);

    await page.getByRole('button', { name: 'Think with the agent' }).click();
    const review = page.getByTestId('decomposition-review');
    await review.waitFor({ timeout: 15_000 });
    await expect.poll(() => focusedIn(page)).toBe('decomposition-review');
    expect(await review.getByTestId('proposed-sub-question').count()).toBe(2);
    await page.getByLabel('Sub-question 1', { exact: true }).fill('How big is the local coffee market?');
    await screenshot(page, '10-decomposition-review');
    await review.getByRole('button', { name: 'Approve and create' }).press('Enter');
    await card(page, 'How big is the local coffee market?').waitFor({ timeout: 15_000 });
    await expect.poll(() => focusedIn(page)).toBe('node-panel');
    await card(page, 'Where should it be?').waitFor();
    await expect.poll(() => page.locator('.dependency-edges path').count()).toBe(1);
    await expect.poll(() => card(page, 'Where should it be?').getAttribute('data-status')).toBe('BLOCKED');

    await selectNode(page, 'How big is the local coffee market?');
    await page.getByRole('button', { name: 'Think with the agent' }).click();
    const question = page.getByTestId('agent-question');
    await question.getByText('What is your budget ceiling?').waitFor({ timeout: 15_000 });
    await expect.poll(() => focusedIn(page)).toBe('agent-question');
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

    // Undo takes back the person's last change, the conclusion they accepted (a run wrote it on their word).
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => card(page, ROOT).getAttribute('data-status')).not.toBe('COMPLETED');
    expect(await page.getByTestId('history-notice').count()).toBe(0);
    await page.context().close();
  });

  it('should move a node under another parent, live in a second window, and show why a move is refused', async () => {
    const map = await call(suite.server.api.client, CREATE_MAP, {
      input: { title: 'Staffing the café', problem: 'Who do I need?', understand: false },
    });
    const root = await call(suite.server.api.client, CREATE_NODE, {
      input: { mapId: map.id, question: 'Who should work in the café?' },
    });
    for (const question of ['Hire a barista', 'Train the barista'])
      await call(suite.server.api.client, CREATE_NODE, { input: { mapId: map.id, parentId: root.id, question } });
    const { page } = await openPage(suite.browser);
    const { page: watcher } = await openPage(suite.browser);
    await watcher.goto(`${suite.server.origin}/maps/${map.id}`);
    await page.goto(`${suite.server.origin}/maps/${map.id}`);
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
    const map = await call(suite.server.api.client, CREATE_MAP, {
      input: { title: 'Opening hours', problem: 'When to open?', understand: false },
    });
    await call(suite.server.api.client, CREATE_NODE, {
      input: { mapId: map.id, question: 'When should the café open?' },
    });
    const { page } = await openPage(suite.browser);
    await page.goto(`${suite.server.origin}/maps/${map.id}`);
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
    const map = await call(suite.server.api.client, CREATE_MAP, {
      input: { title: 'Ideas for the café name', mode: 'DIVERGENT', understand: false },
    });
    const root = await call(suite.server.api.client, CREATE_NODE, {
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
      const node = await call(suite.server.api.client, CREATE_NODE, {
        input: { mapId: map.id, parentId: level === 1 ? root.id : placed.at(-1)![0], question },
      });
      placed.push([node.id, level, role]);
    }
    // Levels and roles are written by the divergent agent; place them directly, then touch the map through the API.
    for (const [id, divergentLevel, divergentRole] of placed)
      await suite.server.db.write((tx) => tx.node.update({ where: { id }, data: { divergentLevel, divergentRole } }));
    await call(suite.server.api.client, UPDATE_MAP, { input: { id: map.id, title: 'Ideas for the café name' } });

    const { page } = await openPage(suite.browser);
    await page.goto(`${suite.server.origin}/maps/${map.id}`);
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
