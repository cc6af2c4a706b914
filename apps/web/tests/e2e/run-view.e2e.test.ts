import {
  ADD_CONTEXT_ITEM,
  PENDING_QUESTIONS,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
} from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import {
  horizontalOverflow,
  launchBrowser,
  openPage,
  screenshot,
  screenshotIfFailed,
  selectNode,
  seriousViolations,
} from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();
/** The café script concludes this question (its first draft is held half-way when asked). */
const SITE = 'Where should it be?';

describe.skipIf(!run)('the live run view: the agent’s graph with the run on it (Chromium, real server)', () => {
  let server: WebServer;
  let browser: Browser;
  let page: Page;
  let mapId: string;

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  afterEach((context) => screenshotIfFailed(page, context.task, 'failed-run-view'));
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Answers the review the run waits on now (not `after`) from another place (the API); returns its id. */
  async function answerReview(reply: { accept: true } | { text: string }, after?: string) {
    let requestId: string | undefined;
    await expect
      .poll(
        async () => {
          const { data } = await call(server.api.client, PENDING_QUESTIONS, { mapId });
          requestId = data.find((q) => q.requestId !== after)?.requestId;
          return requestId;
        },
        { timeout: 15_000 },
      )
      .toBeTruthy();
    await call(server.api.client, REPLY_TO_AGENT, { input: { requestId: requestId!, ...reply } });
    return requestId!;
  }

  it('should follow a running run live, then show its feedback loop as two rounds and each step’s state', async () => {
    const created = await createMapWithTree(server.api, 'Watching the agent', { [SITE]: {} });
    mapId = created.mapId;
    await call(server.api.client, ADD_CONTEXT_ITEM, {
      nodeId: created.ids.get(SITE)!,
      title: 'Budget',
      content: 'Rent under 3,000 a month.',
    });
    page = (await openPage(browser)).page;
    await page.goto(`${server.origin}/maps/${mapId}`);
    await selectNode(page, SITE);
    const release = server.model.holdNextConclusion();
    await page.getByRole('button', { name: 'Think with the agent' }).click();
    await page.getByTestId('watch-run').click();

    // The view opens on the running run: the graph is drawn, the current step highlighted on it and in the list.
    const view = page.getByTestId('run-view');
    await expect.poll(() => view.getAttribute('data-current')).toBe('draftConclusion');
    const node = (step: string) => view.locator(`[data-testid=run-graph-node][data-step=${step}]`);
    await expect.poll(() => node('draftConclusion').getAttribute('data-current')).toBe('true');
    expect(await node('collectContext').getAttribute('data-outcome')).toBe('done');
    expect(await node('saveConclusion').getAttribute('data-visits')).toBe('0');
    const steps = view.getByTestId('run-step');
    await expect.poll(() => steps.last().getAttribute('data-step')).toBe('draftConclusion');
    expect(await steps.last().getAttribute('aria-current')).toBe('step');
    expect(await view.getByTestId('run-graph').textContent()).toContain('Drafting a conclusion');
    await screenshot(page, 'run-view-en-01-running');
    // It opens fitted to the run: no step of the drawing is cut off by its pane.
    const cut = await view.getByTestId('run-graph').evaluate((pane) => {
      const box = pane.getBoundingClientRect();
      return [...pane.querySelectorAll('[data-testid=run-graph-node]')]
        .filter((n) => {
          const r = n.getBoundingClientRect();
          return r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1;
        })
        .map((n) => n.getAttribute('data-step'));
    });
    expect(cut).toEqual([]);

    // Live: the held draft finishes and the highlight moves on to the review, with no reload.
    release();
    await expect.poll(() => view.getAttribute('data-current'), { timeout: 15_000 }).toBe('reviewConclusion');
    await expect.poll(() => node('reviewConclusion').getAttribute('data-current')).toBe('true');
    expect(await node('draftConclusion').getAttribute('data-current')).toBe('false');

    // The person asks for changes (from another place): the loop's second round shows as it happens.
    const first = await answerReview({ text: 'Closer to the station, please.' });
    await expect
      .poll(() => view.locator('[data-testid=run-step][data-step=reviewConclusion][data-round="2"]').count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await answerReview({ accept: true }, first);
    await expect.poll(() => view.getAttribute('data-current'), { timeout: 15_000 }).toBe('');
    await expect.poll(() => view.getByTestId('run-view-status').textContent()).toBe('Done');

    // Two rounds: the feedback edge was taken once, into round 2; drafting and reviewing were each visited twice.
    const loop = view.locator(
      '[data-testid=run-graph-edge][data-source=reviewConclusion][data-target=draftConclusion]',
    );
    expect(await loop.getAttribute('data-rounds')).toBe('2');
    expect(await loop.textContent()).toContain('round 2');
    expect(await node('draftConclusion').getAttribute('data-visits')).toBe('2');
    expect(
      await view
        .locator('[data-testid=run-graph-edge][data-source=draftConclusion][data-target=reviewConclusion]')
        .getAttribute('data-traversals'),
    ).toBe('2');
    expect(await steps.evaluateAll((els) => els.map((el) => el.getAttribute('data-step')))).toEqual([
      'collectContext',
      'checkDependencies',
      'recognizeIntent',
      'draftConclusion',
      'reviewConclusion',
      'draftConclusion',
      'reviewConclusion',
      'saveConclusion',
    ]);

    // Each step's state: the first review's question and the person's feedback…
    const state = view.getByTestId('run-step-state');
    await steps.nth(4).click();
    await expect.poll(() => state.getByTestId('run-step-reply').textContent()).toContain('Closer to the station');
    expect(await state.getByTestId('run-step-reply').getAttribute('data-action')).toBe('revise');
    expect(await state.getByTestId('run-step-question').textContent()).toContain('Is this conclusion right?');
    // …the second draft (chosen on the graph with the keyboard), and the context it was written from…
    await node('draftConclusion').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => state.getByTestId('run-step-answer').textContent()).toBe('Next to the university.');
    expect(await state.locator('h3').textContent()).toContain('round 2');
    expect(await state.getByTestId('run-step-context').textContent()).toContain('Budget');
    // …and the decision the intent step made.
    await steps.nth(2).click();
    await expect.poll(() => state.locator('[data-kind=INTENT]').count()).toBe(1);
    await steps.nth(3).click();
    await expect.poll(() => state.getByTestId('run-step-answer').textContent()).toBe('About 3,000 cups a day nearby.');
    await screenshot(page, 'run-view-en-02-loop-and-state');
    expect(await seriousViolations(page)).toEqual([]);

    // Escape closes it; the node panel's list of runs opens it again.
    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);
    const history = page.getByTestId('node-panel').getByTestId('run-history');
    await history.getByTestId('view-run').first().click();
    await expect.poll(() => view.getByTestId('run-step').count()).toBe(8);
  });

  it('should show the run as a list of steps in Chinese on a phone, with the loop’s rounds and each step’s state', async () => {
    const { page: phone } = await openPage(browser, 'zh-CN', 'phone');
    page = phone;
    await phone.goto(`${server.origin}/maps/${mapId}`);
    await selectNode(phone, SITE);
    await phone.getByTestId('node-panel').getByRole('button', { name: '查看运行过程' }).first().click();
    const view = phone.getByTestId('run-view');
    const steps = view.getByTestId('run-step');
    await expect.poll(() => steps.count()).toBe(8);
    // No graph on a phone: the list is the path, in words (never a step's internal name).
    expect(await view.getByTestId('run-graph').count()).toBe(0);
    const text = (await view.textContent()) ?? '';
    expect(text).toContain('起草结论');
    expect(text).toContain('第 2 轮');
    expect(text).not.toMatch(/\b[a-z]+[A-Z][a-zA-Z]*\b/);
    await steps.nth(4).click();
    const state = view.getByTestId('run-step-state');
    await expect.poll(() => state.getByTestId('run-step-reply').textContent()).toContain('你要求修改');
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'run-view-zh-phone');
    await view.getByRole('button', { name: '关闭' }).click();
    await expect.poll(() => view.count()).toBe(0);
  });
  it('should fork a finished run from its drafting step with feedback, and keep the conclusion until the person accepts', async () => {
    page = (await openPage(browser)).page;
    await page.goto(`${server.origin}/maps/${mapId}`);
    await selectNode(page, SITE);
    await page.getByTestId('node-panel').getByTestId('run-history').getByTestId('view-run').first().click();
    const view = page.getByTestId('run-view');
    const original = await view.getAttribute('data-run-id');
    const steps = view.getByTestId('run-step');
    await expect.poll(() => steps.count()).toBe(8);
    // A step that cannot be forked offers nothing; the drafting step offers a fork that asks what should change.
    await steps.nth(0).click();
    expect(await view.getByTestId('run-fork').count()).toBe(0);
    await steps.nth(5).click();
    const fork = view.getByTestId('run-fork');
    await fork.getByTestId('run-fork-submit').click();
    await expect.poll(() => fork.getByRole('alert').textContent()).toBe('Write what should change first.');
    await fork.getByTestId('run-fork-feedback').fill('Say whether to open it at all.');
    await screenshot(page, 'run-view-en-03-fork');
    await fork.getByTestId('run-fork-submit').click();

    // The view moves to the new run, says where it came from, and follows it to the person's review.
    await expect.poll(() => view.getAttribute('data-run-id')).not.toBe(original);
    expect(await view.getByTestId('run-view-forked').textContent()).toContain('Drafting a conclusion');
    await expect.poll(() => view.getAttribute('data-current'), { timeout: 15_000 }).toBe('reviewConclusion');
    // It re-ran from the drafting step: it gathered no context and recognised no intent again.
    expect(await steps.evaluateAll((els) => els.map((el) => el.getAttribute('data-step')))).toEqual([
      'draftConclusion',
      'reviewConclusion',
    ]);
    // Until the person accepts the fork's draft, the node keeps the conclusion it had.
    const panel = page.getByTestId('node-panel');
    expect(await panel.textContent()).toContain('Next to the university.');
    await answerReview({ accept: true });
    await expect.poll(() => view.getByTestId('run-view-status').textContent(), { timeout: 15_000 }).toBe('Done');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.textContent()).toContain('Open it, next to the university.');
  });

  it('should fork a finished run from its review with the proposed sub-questions edited, in the person’s words', async () => {
    const root = 'Open a bakery?';
    const created = await createMapWithTree(server.api, 'Forking a review', { [root]: {} });
    mapId = created.mapId;
    const original = await call(server.api.client, PROCESS_NODE, { nodeId: created.ids.get(root)! });
    let requestId: string | undefined;
    await expect
      .poll(
        async () => {
          requestId = (await call(server.api.client, PENDING_QUESTIONS, { mapId })).data[0]?.requestId;
          return requestId;
        },
        { timeout: 15_000 },
      )
      .toBeTruthy();
    await call(server.api.client, REVIEW_DECOMPOSITION, { input: { requestId: requestId!, accept: true } });

    page = (await openPage(browser)).page;
    await page.goto(`${server.origin}/maps/${mapId}`);
    await selectNode(page, root);
    await page.getByTestId('node-panel').getByTestId('run-history').getByTestId('view-run').first().click();
    const view = page.getByTestId('run-view');
    expect(await view.getAttribute('data-run-id')).toBe(original.id);
    await expect.poll(() => view.getByTestId('run-view-status').textContent(), { timeout: 15_000 }).toBe('Done');

    // The review step offers its proposal to edit: the sub-questions the person was shown, in multi-line fields.
    await view.locator('[data-testid=run-step][data-step=reviewProposal]').click();
    const fork = view.getByTestId('run-fork');
    const rows = fork.getByTestId('proposed-sub-question');
    await expect.poll(() => rows.count()).toBe(2);
    const question = (n: number) => fork.getByRole('textbox', { name: `Sub-question ${n}`, exact: true });
    expect(await question(1).inputValue()).toBe('How big is the market?');
    expect(await question(2).inputValue()).toBe('Where should it be?');
    expect(await question(1).evaluate((el) => el.tagName)).toBe('TEXTAREA');

    // Edit one, leave one out, add one: an empty row is named in words, before anything is sent.
    await question(1).fill('How many people would buy bread\nevery morning?');
    await fork.getByRole('button', { name: 'Leave out “Where should it be?”' }).click();
    await fork.getByRole('button', { name: 'Add a sub-question' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await fork.getByTestId('run-fork-submit').click();
    await expect
      .poll(() => fork.getByRole('alert').textContent())
      .toBe('Sub-question 2 has no question. Sub-question 2 has no goal.');
    await question(2).fill('What does an oven cost?');
    await fork.getByRole('textbox', { name: 'Goal of sub-question 2' }).fill('A budget');
    await screenshot(page, 'run-view-en-04-fork-review');
    await fork.getByTestId('run-fork-submit').click();

    // The new run asks the person to review exactly the edited sub-questions.
    await expect.poll(() => view.getAttribute('data-run-id')).not.toBe(original.id);
    expect(await view.getByTestId('run-view-forked').textContent()).toContain('Waiting for your review');
    await expect.poll(() => view.getAttribute('data-current'), { timeout: 15_000 }).toBe('reviewProposal');
    const [review] = (await call(server.api.client, PENDING_QUESTIONS, { mapId })).data;
    expect(review?.runId).toBe(await view.getAttribute('data-run-id'));
    const proposal = (review!.context as { proposal: { subQuestions: { question: string; goal: string }[] } }).proposal;
    expect(proposal.subQuestions).toMatchObject([
      { question: 'How many people would buy bread\nevery morning?', goal: 'Estimate demand' },
      { question: 'What does an oven cost?', goal: 'A budget' },
    ]);

    // A refusal is told in words, never as the server's message: the original cannot be forked while this waits.
    await page.keyboard.press('Escape');
    await page.getByTestId('node-panel').getByTestId('run-history').getByTestId('view-run').last().click();
    await expect.poll(() => view.getAttribute('data-run-id')).toBe(original.id);
    await view.locator('[data-testid=run-step][data-step=reviewProposal]').click();
    await view.getByTestId('run-fork').getByTestId('run-fork-submit').click();
    await expect
      .poll(() => view.getByTestId('run-fork').getByRole('alert').textContent())
      .toBe('Another run is working on this question; wait for it to end or cancel it, then fork.');
  });
});
