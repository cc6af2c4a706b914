import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { card, focusedTestId, openPage, screenshot, selectNode } from './helpers/browser.ts';
import { browserSuite } from './helpers/browser-suite.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { ROOT_QUESTION } from './helpers/scripted-model.ts';

const run = chromiumAvailable();

/** Records every text the "agent is working" line shows, for as long as the page lives. */
const RECORD_STEP_TEXTS = () => {
  const w = window as unknown as { __stepTexts: Set<string> };
  w.__stepTexts = new Set();
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('[data-testid="running-step"] .row, [data-testid="card-stream"]'))
      w.__stepTexts.add(el.textContent?.trim() ?? '');
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

const stepTexts = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { __stepTexts: Set<string> }).__stepTexts]);

describe.skipIf(!run)('reviewing what the agents propose, and watching them work', () => {
  let page: Page;
  const suite = browserSuite(() => page, 'failed-review');

  beforeAll(async () => {
    page = (await openPage(suite.browser)).page;
    await page.addInitScript(RECORD_STEP_TEXTS);
  });

  it('should preview proposed sub-questions as ghost cards, number their needs and say why approving waits', async () => {
    const { mapId } = await createMapWithTree(suite.server.api, 'Reviewing a proposal', { [ROOT_QUESTION]: {} });
    await page.goto(`${suite.server.origin}/maps/${mapId}`);
    await selectNode(page, ROOT_QUESTION);
    await page.getByRole('button', { name: 'Think with the agent' }).click();
    const review = page.getByTestId('decomposition-review');
    await review.waitFor({ timeout: 15_000 });
    const ghosts = page.getByTestId('ghost-card');
    await expect.poll(() => ghosts.count()).toBe(2);
    expect(await ghosts.nth(0).textContent()).toContain('How big is the market?');

    // Multi-line fields, and the hint numbers are the list's numbers.
    const first = review.getByLabel('Sub-question 1', { exact: true });
    expect(await first.evaluate((el) => el.tagName)).toBe('TEXTAREA');
    await first.fill('How big is the local\ncoffee market?');
    await expect.poll(() => ghosts.nth(0).textContent()).toContain('How big is the local');
    expect(
      await review.getByRole('button', { name: 'Sub-question 2 needs 1 first' }).getAttribute('aria-pressed'),
    ).toBe('true');

    // An added row: approving waits until it has a question and a goal, and says so beside the button.
    await review.getByRole('button', { name: '＋ Add a sub-question' }).click();
    await expect.poll(() => ghosts.count()).toBe(3);
    const approve = review.getByRole('button', { name: 'Approve and create' });
    expect(await approve.isDisabled()).toBe(true);
    expect(await review.getByTestId('approve-blocked').textContent()).toContain('Sub-question 3 has no question.');
    await review.getByLabel('Sub-question 3', { exact: true }).fill('Who will staff it?');
    await review.getByLabel('Goal of sub-question 3', { exact: true }).fill('A rota for the first month');
    await review.getByRole('button', { name: 'Sub-question 3 needs 2 first' }).click();
    await screenshot(page, 'review-en-01-ghosts');

    // Leaving out the first renumbers the rest; the added row's need follows (it is now "2 needs 1").
    await review.getByRole('button', { name: /^Leave out “How big is the local/ }).click();
    await expect.poll(() => ghosts.count()).toBe(2);
    expect(
      await review.getByRole('button', { name: 'Sub-question 2 needs 1 first' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await approve.isDisabled()).toBe(false);
    await approve.click();

    await card(page, 'Who will staff it?').waitFor({ timeout: 15_000 });
    await card(page, 'Where should it be?').waitFor();
    await expect.poll(() => ghosts.count()).toBe(0);
    await expect.poll(() => page.locator('.dependency-edges path[data-from]').count()).toBe(1);
    await expect.poll(() => card(page, 'Who will staff it?').getAttribute('data-status')).toBe('BLOCKED');
  });

  it('should stream a conclusion on the card as it is written, in words, and let the person edit it before accepting', async () => {
    await selectNode(page, 'Where should it be?');
    const release = suite.server.model.holdNextConclusion();
    await page.getByRole('button', { name: 'Think with the agent' }).click();
    const stream = card(page, 'Where should it be?').getByTestId('card-stream');
    await stream.waitFor({ timeout: 15_000 });
    await page.getByTestId('running-step').getByText('The agent is drafting a conclusion…').waitFor();
    await page.getByTestId('streaming-text').waitFor();
    await screenshot(page, 'review-en-02-streaming');
    release();

    const question = page.getByTestId('needs-you').getByTestId('agent-question');
    await question.getByText('About 3,000 cups a day nearby.').waitFor({ timeout: 15_000 });
    // The feedback button says what it does.
    await question.getByRole('button', { name: 'Send feedback and redraft' }).waitFor();
    await question.getByRole('button', { name: 'Edit before accepting' }).click();
    await question.getByTestId('draft-editor').fill('Next to the university, on the side of the station.');
    await screenshot(page, 'review-en-03-edit-draft');
    await question.getByRole('button', { name: 'Accept my version' }).click();
    await expect
      .poll(() => card(page, 'Where should it be?').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('COMPLETED');
    await page
      .getByTestId('node-panel')
      .getByTestId('conclusion')
      .getByText('Next to the university, on the side of the station.')
      .waitFor();
  });

  it('should list the node’s past runs with their outcome, and never show a step’s internal name', async () => {
    const history = page.getByTestId('node-panel').getByTestId('run-history');
    await history.locator('li[data-status="COMPLETED"]').waitFor();
    expect(await history.textContent()).toContain('Thinking about this question');
    expect(await history.textContent()).toContain('saving the conclusion');
    await selectNode(page, ROOT_QUESTION);
    expect(await history.textContent()).toContain('creating the sub-questions');
    await screenshot(page, 'review-en-04-run-history');

    const texts = await stepTexts(page);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).not.toMatch(/\b[a-z]+[A-Z][a-zA-Z]*\b/);
  });

  it.each([
    ['zh-CN', 'zh', 'desktop'],
    ['en-US', 'en', 'phone'],
    ['zh-CN', 'zh', 'phone'],
  ] as const)(
    'should show the review as ghost cards, the streaming, the draft editing and the run history in %s (%s) on a %s',
    async (locale, lang, screen) => {
      const say = (en: string, zh: string) => (lang === 'en' ? en : zh);
      const { page: other } = await openPage(suite.browser, locale, screen);
      await other.addInitScript(RECORD_STEP_TEXTS);
      const { mapId, ids } = await createMapWithTree(suite.server.api, `Review ${lang} ${screen}`, {
        [ROOT_QUESTION]: {},
      });
      await other.goto(`${suite.server.origin}/maps/${mapId}?node=${ids.get(ROOT_QUESTION)}`);
      await other.getByTestId('agent-controls').getByRole('button').last().click();
      await other.getByTestId('decomposition-review').waitFor({ timeout: 15_000 });
      await expect.poll(() => other.getByTestId('ghost-card').count()).toBe(2);
      await screenshot(other, `review-${lang}-${screen}`);
      const panel = other.getByTestId('node-panel');
      const focusedIn = () => focusedTestId(other);
      // Keyboard-only in either language: the proposal takes the focus, and approving leaves it in the panel.
      await expect.poll(focusedIn).toBe('decomposition-review');
      await panel.getByRole('button', { name: say('Approve and create', '批准并创建') }).press('Enter');
      await expect.poll(focusedIn).toBe('node-panel');

      // A conclusion written on the first sub-question (the second waits for it): streamed, edited before
      // accepting, then in the run history.
      const where = card(other, 'How big is the market?');
      await where.waitFor({ timeout: 15_000 });
      await panel.getByRole('button', { name: say('Close the details', '关闭详情') }).click();
      await where.click();
      await panel.locator('[data-field="question"] .value').filter({ hasText: 'How big is the market?' }).waitFor();
      const release = suite.server.model.holdNextConclusion();
      await panel.getByTestId('agent-controls').locator('select').selectOption('CONCLUDE');
      await panel.getByRole('button', { name: say('Think with the agent', '让智能体思考') }).click();
      await where.getByTestId('card-stream').waitFor({ timeout: 15_000 });
      await panel.getByTestId('streaming-text').waitFor();
      // The run's buttons keep their words whole on one line, however narrow the panel.
      for (const button of await panel.getByTestId('running-step').getByRole('button').all())
        expect(
          await button.evaluate((el) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
          }),
        ).toBe(1);
      await screenshot(other, `review-${lang}-${screen}-02-streaming`);
      release();
      const question = panel.getByTestId('needs-you').getByTestId('agent-question');
      await question
        .getByRole('button', { name: say('Edit before accepting', '先修改再接受') })
        .click({ timeout: 15_000 });
      await question.getByTestId('draft-editor').fill(say('Next to the university.', '大学旁边，车站那一侧。'));
      await screenshot(other, `review-${lang}-${screen}-03-edit-draft`);
      await question.getByRole('button', { name: say('Accept my version', '接受我的版本') }).click();
      await expect.poll(() => where.getAttribute('data-status'), { timeout: 15_000 }).toBe('COMPLETED');
      const history = panel.getByTestId('run-history');
      await history.locator('li[data-status="COMPLETED"]').waitFor();
      await history.scrollIntoViewIfNeeded();
      await screenshot(other, `review-${lang}-${screen}-04-run-history`);
      for (const text of await stepTexts(other)) expect(text).not.toMatch(/\b[a-z]+[A-Z][a-zA-Z]*\b/);
      await other.context().close();
    },
  );
});
