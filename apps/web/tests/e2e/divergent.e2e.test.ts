import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { headerFit, horizontalOverflow, openPage, screenshot } from './helpers/browser.ts';
import { browserSuite } from './helpers/browser-suite.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { FAILING_TASK } from './helpers/scripted-model.ts';

const run = chromiumAvailable();

/** Identifiers the interface must never show: skills and graph steps are named in words. */
const RAW_NAMES =
  /commonQnA|codeArtifacts|generateDoc|librarySearch|webSearch|writeSummary|planTasks|runTask|SUMMARY|FINAL\b/;

describe.skipIf(!run)('divergent exploration in the web workspace', () => {
  let page: Page;
  const suite = browserSuite(() => page, 'failed-divergent');

  beforeAll(async () => {
    page = (await openPage(suite.browser)).page;
  });

  it('should create a divergent map, review a level with an edit, and watch the levels grow to the final output', async () => {
    // A map in divergent mode, from the home page.
    await page.goto(`${suite.server.origin}/`);
    await page.getByRole('link', { name: 'New map' }).first().click();
    await page.getByLabel('Title').fill('Should I open a café by the station?');
    await page.getByLabel('Divergent (levels of parallel ideas)').check();
    await page.getByRole('button', { name: 'Create the map' }).click();
    const pane = page.getByTestId('divergent-pane');
    await pane.waitFor({ timeout: 15_000 });
    // With the flow open the header keeps every control on screen (or in "More"), and the map keeps its room.
    expect((await headerFit(page)).offScreen).toEqual([]);
    expect((await page.getByTestId('canvas').boundingBox())!.width).toBeGreaterThanOrEqual(360);

    // The dialog explains the loop in plain words; each level waits for review by default.
    await pane.getByTestId('divergent-open').click();
    const dialog = page.getByTestId('divergent-dialog');
    await dialog.getByText('sends several helpers out at the same time').waitFor();
    expect(await dialog.getByTestId('divergent-review-each').isChecked()).toBe(true);
    await dialog.getByLabel('Tasks at the same time').fill('4');
    await screenshot(page, 'divergent-en-01-dialog');
    await dialog.getByTestId('divergent-submit').click();

    // Round 1 waits for the person: rename a task, then approve the edited list.
    const review = page.getByTestId('divergent-review');
    await review.waitFor({ timeout: 20_000 });
    await expect.poll(() => review.getByTestId('review-task').count()).toBe(3);
    expect(await review.getByTestId('review-task-skill').nth(1).inputValue()).toBe('codeArtifacts');
    expect(await review.getByTestId('review-task-skill').nth(1).locator('option:checked').textContent()).toBe('Code');
    await review.getByTestId('review-task-name').first().fill('Estimate the footfall at the station');
    await screenshot(page, 'divergent-en-02-review');
    const release = suite.server.model.holdNextTask();
    await review.getByRole('button', { name: 'Approve my edits and run' }).click();

    // The level's tasks run side by side: one is held running, the failing one says why, the others finish.
    const tasks = page.getByTestId('divergent-task');
    await expect.poll(() => tasks.count(), { timeout: 20_000 }).toBe(3);
    const running = tasks.filter({ hasText: 'Estimate the footfall at the station' });
    await expect.poll(() => running.getAttribute('data-status')).toBe('RUNNING');
    const failed = tasks.filter({ hasText: FAILING_TASK.en });
    await expect.poll(() => failed.getAttribute('data-status'), { timeout: 20_000 }).toBe('FAILED');
    expect(await failed.getByTestId('task-reason').textContent()).toContain('Why it failed:');
    expect(await failed.getByTestId('task-skill').textContent()).toBe('Analysis');
    // The held task's text is on its card, live, before it finishes; released, it grows there while it runs.
    const cardState = () =>
      running.evaluate((el) => ({
        status: el.getAttribute('data-status'),
        text: el.querySelector('[data-testid="streaming-text"]')?.textContent ?? '',
      }));
    await expect.poll(cardState, { timeout: 20_000 }).toEqual({ status: 'RUNNING', text: 'Result of “E' });
    await screenshot(page, 'divergent-en-03-running');
    release();
    await expect
      .poll(async () => {
        const { status, text } = await cardState();
        return status === 'RUNNING' && text.length > 12 && text.startsWith('Result of “Estimate');
      })
      .toBe(true);
    await expect.poll(() => running.getAttribute('data-status'), { timeout: 20_000 }).toBe('DONE');

    // While the session goes on, the person steers: feedback for the next summary, a stricter threshold, a task of their own.
    const steering = page.getByTestId('divergent-steering');
    await steering.locator('summary').click();
    await steering.getByTestId('steer-feedback').fill('Focus on the rent, not on staff');
    await steering.getByTestId('steer-feedback-send').click();
    await steering.getByTestId('steer-feedback-list').getByText('Focus on the rent, not on staff').waitFor();
    await steering.getByTestId('steer-threshold').fill('95');
    await steering.getByTestId('steer-threshold-apply').click();
    await expect.poll(() => page.getByTestId('divergent-session').textContent()).toContain('Good enough at: 95%');
    await steering.getByTestId('steer-task-name').fill('Check the rent');
    await steering.getByTestId('steer-task-query').fill('What does a shop by the station cost?');
    expect(await steering.getByTestId('steer-task-skill').locator('option').allTextContents()).toEqual([
      'Analysis',
      'Document',
      'Code',
    ]);
    // Skills this server does not offer say why.
    expect(await steering.getByTestId('skill-unavailable').allTextContents()).toEqual([
      'Library search is not offered: no knowledge source is set up on this server.',
      'Web search is not offered: no search provider is set up on this server.',
    ]);
    await steering.getByTestId('steer-task-add').click();
    await steering.getByTestId('steer-added-list').getByText('Check the rent').waitFor();

    // Level 1's summary is scored: 50%, each of the three dimensions with its reason.
    const scores = page.getByTestId('completion-score');
    await expect.poll(() => scores.count(), { timeout: 20_000 }).toBe(1);
    // (its threshold is the one in force when it was scored: before or after the change above)
    expect(await scores.first().textContent()).toMatch(/Score 50% \(good enough at 9[05]%\)/);
    const reasons = await scores.first().getByTestId('score-reason').allTextContents();
    expect(reasons).toEqual(['Competitors are still unknown', 'It does not decide yet', 'Thin so far']);
    expect(await scores.first().textContent()).toContain('Information completeness (40%)');

    // Round 2 waits too (never approved by itself); approved as proposed, the person's task runs in it.
    await review.getByTestId('review-task').first().waitFor({ timeout: 20_000 });
    await review.getByRole('button', { name: 'Approve and run' }).click();

    // 95% reaches the threshold: the final output is written, as a document with highlighted code.
    const final = page.getByTestId('divergent-final');
    await final.waitFor({ timeout: 30_000 });
    await expect.poll(() => scores.count()).toBe(2);
    expect(await scores.nth(1).textContent()).toContain('Score 95% (good enough at 95%)');
    await tasks.filter({ hasText: 'Check the rent' }).getByText('Added by you').waitFor();
    const history = await page.getByTestId('score-history').locator('li').allTextContents();
    expect(history.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(['Level 1 50%', 'Level 2 95%']);
    await final.getByRole('heading', { name: 'Should I open the café?' }).waitFor();
    await final.locator('pre code.hljs .hljs-built_in, pre code.hljs .hljs-number').first().waitFor();
    expect(await final.getByTestId('code-language').textContent()).toBe('Code: python');
    // It ends with the sources the server wrote from the tasks it cites, and says which tasks it drew on.
    await final.getByRole('heading', { name: 'Sources' }).waitFor();
    expect((await final.getByTestId('final-drew-on').textContent())?.trim()).toBe('Drew on the tasks L1.T1');
    await expect.poll(() => page.getByTestId('divergent-status').textContent()).toContain('Finished');

    // The code task's result is highlighted code with its language.
    const code = tasks.filter({ hasText: 'Write an estimate script' });
    await code.locator('summary').click();
    await code.locator('pre code.hljs .hljs-keyword').first().waitFor();
    expect(await code.getByTestId('code-language').textContent()).toBe('Code: python');
    await screenshot(page, 'divergent-en-04-final');

    // Opening the final output shows it in the node panel, rendered, where it is edited and exported like any node.
    await final.getByTestId('final-open').click();
    const panel = page.getByTestId('node-panel');
    await panel.getByTestId('conclusion-document').getByRole('heading', { name: 'Should I open the café?' }).waitFor();
    // The flow and the node's panel beside the map: the map keeps its room (the panes shrink first).
    expect((await page.getByTestId('canvas').boundingBox())!.width).toBeGreaterThanOrEqual(360);
    // The person edits the document: the flow shows the edit, and both downloads carry it as written.
    const conclusion = panel.getByRole('region', { name: 'Conclusion' });
    await conclusion.getByRole('button', { name: 'Edit' }).click();
    const editor = conclusion.locator('textarea');
    expect(await editor.inputValue()).toContain('# Should I open the café?');
    await editor.fill(`${await editor.inputValue()}\n## My note\n\n- Ask the landlord first.\n`);
    await conclusion.getByRole('button', { name: 'Save' }).click();
    await final.getByRole('heading', { name: 'My note' }).waitFor();
    await screenshot(page, 'divergent-en-05-final-open');
    const download = page.waitForEvent('download');
    await final.getByTestId('final-download').click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/\.md$/);
    expect(readFileSync((await saved.path())!, 'utf8')).toContain('## My note\n\n- Ask the landlord first.');
    // The map's Markdown export holds the document as written: its code keeps its indentation, its heading its #.
    await page.getByTestId('export-menu').click();
    await page.getByRole('menuitemradio', { name: 'The whole map' }).click();
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Markdown (.md)' }).click(),
    ]);
    const markdown = readFileSync((await exported.path())!, 'utf8');
    expect(markdown).toMatch(/Document \(Markdown, as written\):\n *`{4}markdown\n *# Should I open the café\?\n/);
    expect(markdown).toMatch(/\n *## My note\n\n *- Ask the landlord first\.\n *`{4}\n/);
    expect(await pane.textContent()).not.toMatch(RAW_NAMES);
  });

  it('should skip a running task and stop the session, which still writes its final output', async () => {
    const { mapId, ids } = await createMapWithTree(suite.server.api, 'Stopping', { 'Where to open the café?': {} });
    await page.goto(`${suite.server.origin}/maps/${mapId}?node=${ids.get('Where to open the café?')}`);
    await page.getByTestId('node-panel').getByTestId('divergent-open').click();
    await page.getByTestId('divergent-submit').click();
    // The panel points to the review in the flow, and the keyboard lands in it.
    await page.getByTestId('open-divergent-review').click({ timeout: 20_000 });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="divergent-review"]') !== null))
      .toBe(true);
    const release = suite.server.model.holdNextTask();
    await page.getByTestId('review-approve').click();

    const running = page.getByTestId('divergent-task').filter({ hasText: 'Estimate the footfall' });
    await expect.poll(() => running.getAttribute('data-status'), { timeout: 20_000 }).toBe('RUNNING');
    await running.getByRole('button', { name: 'Skip “Estimate the footfall”' }).click();
    await expect.poll(() => running.getAttribute('data-status'), { timeout: 20_000 }).toBe('SKIPPED');
    expect(await running.getByTestId('task-status').textContent()).toContain('Skipped');
    release();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('divergent-stop').click();
    await page.getByTestId('divergent-final').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('divergent-session').getAttribute('data-status')).toBe('COMPLETED');
    expect(await page.getByTestId('divergent-stop').count()).toBe(0);
    await screenshot(page, 'divergent-en-06-stopped');
  });

  it('should run a whole session in Chinese on a phone, the flow stacked and the controls touch-sized', async () => {
    const { page: phone } = await openPage(suite.browser, 'zh-CN', 'phone');
    const question = '我应该在车站旁边开咖啡馆吗？';
    const { mapId, ids } = await createMapWithTree(suite.server.api, '车站咖啡馆', { [question]: {} }, 'zh');
    await phone.goto(`${suite.server.origin}/maps/${mapId}?node=${ids.get(question)}`);
    await phone.getByTestId('node-panel').getByTestId('divergent-open').click();
    const dialog = phone.getByTestId('divergent-dialog');
    await dialog.getByText('同时派出几个助手').waitFor();
    await dialog.getByTestId('divergent-review-each').uncheck();
    await screenshot(phone, 'divergent-zh-phone-01-dialog');
    await dialog.getByTestId('divergent-submit').click();
    await phone.getByTestId('node-panel').getByRole('button', { name: '关闭' }).click();

    const final = phone.getByTestId('divergent-final');
    await final.waitFor({ timeout: 40_000 });
    await final.getByRole('heading', { name: '是否开咖啡馆' }).waitFor();
    await final.getByRole('heading', { name: '来源' }).waitFor();
    expect((await final.getByTestId('final-drew-on').textContent())?.trim()).toBe('依据的任务：L1.T1');
    const failed = phone.getByTestId('divergent-task').filter({ hasText: FAILING_TASK.zh });
    expect(await failed.getAttribute('data-status')).toBe('FAILED');
    expect(await failed.getByTestId('task-reason').textContent()).toContain('失败原因：');
    const scores = phone.getByTestId('completion-score');
    expect(await scores.last().textContent()).toContain('得分 95%（达标线 90%）');
    expect(await scores.last().getByTestId('score-reason').first().textContent()).toBe('客流和竞争对手都已清楚');
    expect(await scores.last().textContent()).toContain('信息完整度（40%）');
    expect(await phone.getByTestId('divergent-status').textContent()).toContain('已完成');

    // Stacked: each level's tasks sit below its summary; nothing scrolls sideways; buttons are touch-sized.
    const summary = await phone.getByTestId('divergent-summary').first().boundingBox();
    const firstTask = await phone.getByTestId('divergent-task').first().boundingBox();
    expect(firstTask!.y).toBeGreaterThan(summary!.y + summary!.height);
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    for (const id of ['final-open', 'final-download']) {
      const box = await final.getByTestId(id).boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    expect(await phone.getByTestId('divergent-pane').textContent()).not.toMatch(RAW_NAMES);
    await final.scrollIntoViewIfNeeded();
    await screenshot(phone, 'divergent-zh-phone-02-final');
    await phone.getByTestId('divergent-summary').first().scrollIntoViewIfNeeded();
    await screenshot(phone, 'divergent-zh-phone-03-levels');
    await phone.context().close();
  });
});
