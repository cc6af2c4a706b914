import {
  CREATE_MAP,
  CREATE_NODE,
  MAP,
  PENDING_QUESTIONS,
  PROCESS_NODE,
  REVIEW_DECOMPOSITION,
  UPDATE_MAP,
  UPDATE_NODE,
} from '@thinkingmap/client';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, openPage, screenshot } from './helpers/browser.ts';
import { browserSuite } from './helpers/browser-suite.ts';
import { chromiumAvailable } from './helpers/chromium.ts';

const run = chromiumAvailable();
const BEFORE = 'Open a bakery?';
const AFTER = 'Open two bakeries?';
/** The café script decomposes a root question into these two. */
const MARKET = 'How big is the market?';
const SITE = 'Where should it be?';

describe.skipIf(!run)('undo, redo and the history panel in the web workspace (Chromium, real server)', () => {
  let page: Page;
  const suite = browserSuite(() => page);

  async function editedMap() {
    const client = suite.server.api.client;
    const map = await call(client, CREATE_MAP, { input: { title: 'Bakery' } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: BEFORE } });
    await call(client, UPDATE_NODE, { input: { id: root.id, expectedVersion: root.version, question: AFTER } });
    return map.id;
  }

  /** A map whose root an agent run decomposed (the person approved its two sub-questions); returns its id. */
  async function decomposedMap() {
    const client = suite.server.api.client;
    const map = await call(client, CREATE_MAP, { input: { title: 'Café' } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'Open a café?' } });
    await call(client, PROCESS_NODE, { nodeId: root.id });
    let requestId: string | undefined;
    await expect
      .poll(
        async () => {
          requestId = (await call(client, PENDING_QUESTIONS, { mapId: map.id })).data[0]?.requestId;
          return requestId;
        },
        { timeout: 15_000 },
      )
      .toBeTruthy();
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: requestId!, accept: true } });
    return map.id as string;
  }

  /** The history panel's change in which the run created the sub-questions (it offers "Undo this run"). */
  const runCreation = (panel: ReturnType<Page['getByTestId']>) =>
    panel
      .locator('[data-testid=history-change]')
      .filter({ has: panel.page().getByTestId('undo-run') })
      .filter({ hasText: MARKET })
      .first();

  it('should undo a whole run from the history, then restore the map to after it as a new version', async () => {
    const mapId = await decomposedMap();
    page = (await openPage(suite.browser)).page;
    await page.goto(`${suite.server.origin}/maps/${mapId}`);
    await card(page, SITE).waitFor({ timeout: 15_000 });
    await page.getByTestId('history-toggle').click();
    const panel = page.getByTestId('history-panel');
    await runCreation(panel).waitFor();
    expect(await runCreation(panel).textContent()).toContain('The agent, creating the sub-questions');

    await runCreation(panel).getByRole('button', { name: 'Undo this run' }).click();
    await expect.poll(() => card(page, MARKET).count()).toBe(0);
    expect(await card(page, SITE).count()).toBe(0);
    await expect.poll(() => panel.getByTestId('history-change').first().getAttribute('data-kind')).toBe('UNDO');
    expect(await panel.getByTestId('history-change').first().textContent()).toContain(MARKET);
    // Every change the run made is marked undone, like a change taken back by "Undo".
    const byRun = panel.locator('[data-testid=history-change]').filter({ has: page.getByTestId('undo-run') });
    const marks = () => byRun.evaluateAll((changes) => changes.map((c) => c.querySelector('.line em')?.textContent));
    await expect.poll(async () => new Set(await marks())).toEqual(new Set(['undone']));

    // Restoring to the run's last change brings back all it made, as a new version on top of the undo.
    const runEnd = panel
      .locator('[data-testid=history-change]')
      .filter({ has: page.getByTestId('undo-run') })
      .first();
    await runEnd.getByRole('button', { name: 'Restore to here' }).click();
    await card(page, MARKET).waitFor();
    await card(page, SITE).waitFor();
    await expect.poll(() => panel.getByTestId('history-change').first().getAttribute('data-kind')).toBe('RESTORE');
    await screenshot(page, 'history-en-undo-run-restore');
  });

  it('should refuse to undo a run when a later change of the person depends on it, and say why', async () => {
    const mapId = await decomposedMap();
    // The person rewords a sub-question the run created (from another place).
    const client = suite.server.api.client;
    let site: { id: string; version: number } | undefined;
    await expect
      .poll(
        async () => {
          const map = await call(client, MAP, { id: mapId });
          site = map.nodes.find((n) => n.question === SITE);
          return site;
        },
        { timeout: 15_000 },
      )
      .toBeTruthy();
    await call(client, UPDATE_NODE, {
      input: { id: site!.id, expectedVersion: site!.version, question: 'Which street?' },
    });

    page = (await openPage(suite.browser)).page;
    await page.goto(`${suite.server.origin}/maps/${mapId}`);
    await card(page, 'Which street?').waitFor();
    await page.getByTestId('history-toggle').click();
    const panel = page.getByTestId('history-panel');
    await runCreation(panel).getByRole('button', { name: 'Undo this run' }).click();
    const notice = page.getByTestId('history-notice');
    await expect
      .poll(() => notice.textContent())
      .toMatch(/^Not undone: a later change \(#\d+\) builds on it\. Undo that one first\.$/);
    // Nothing was undone: the sub-questions stay, and the run's change is not marked undone.
    expect(await card(page, MARKET).count()).toBe(1);
    expect(await card(page, 'Which street?').count()).toBe(1);
    expect(await runCreation(panel).locator('em').count()).toBe(0);
    // The person's edit is listed in words: the field by its name, not the server's.
    const edit = panel.locator('[data-testid=history-change][data-kind=EDIT]').filter({ hasText: 'Which street?' });
    expect(await edit.locator('dt').allTextContents()).toEqual(['Question']);
    await screenshot(page, 'history-en-undo-run-refused');
  });

  it('should undo and redo with the keyboard and the buttons, and list the change with its diff', async () => {
    const mapId = await editedMap();
    page = (await openPage(suite.browser)).page;
    await page.goto(`${suite.server.origin}/maps/${mapId}`);
    await card(page, AFTER).waitFor();
    const undo = page.getByRole('button', { name: 'Undo', exact: true });
    await expect.poll(() => undo.isEnabled()).toBe(true);

    // Ctrl+Z in a text field is the field's own undo, not the map's: only the second press below undoes.
    await page.locator('#map-search').focus();
    await page.keyboard.press('Control+z');
    await page.locator('#map-search').blur();
    await page.keyboard.press('Control+z');
    await card(page, BEFORE).waitFor();
    await page.getByTestId('history-toggle').click();
    const panel = page.getByTestId('history-panel');
    await expect.poll(() => panel.getByTestId('history-change').first().getAttribute('data-kind')).toBe('UNDO');
    expect(await panel.locator('[data-testid=history-change][data-kind=UNDO]').count()).toBe(1);
    await page.getByTestId('history-toggle').click();

    await page.keyboard.press('Shift+Control+z');
    await card(page, AFTER).waitFor();
    await undo.click();
    await card(page, BEFORE).waitFor();
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    await card(page, AFTER).waitFor();

    await page.getByTestId('history-toggle').click();
    await expect.poll(() => panel.getByTestId('history-change').first().getAttribute('data-kind')).toBe('REDO');
    const edit = panel.locator('[data-testid=history-change][data-kind=EDIT]').filter({ hasText: AFTER }).first();
    await expect.poll(() => edit.textContent()).toContain('You');
    expect(await edit.locator('del').first().textContent()).toBe(BEFORE);
    expect(await edit.locator('ins').first().textContent()).toBe(AFTER);
    // The redo put the edit back in effect: it is no longer marked undone (the undo it took back is).
    expect(await edit.locator('.line em').count()).toBe(0);
    const undone = panel.locator('[data-testid=history-change][data-kind=UNDO]').first();
    expect(await undone.locator('.line em').textContent()).toBe('undone');
  });

  it('should undo and show who changed what in Chinese', async () => {
    const mapId = await editedMap();
    const { page: zh } = await openPage(suite.browser, 'zh-CN');
    page = zh;
    await zh.goto(`${suite.server.origin}/maps/${mapId}`);
    await card(zh, AFTER).waitFor();
    const undo = zh.getByRole('button', { name: '撤销', exact: true });
    await expect.poll(() => undo.isEnabled()).toBe(true);
    await undo.click();
    await card(zh, BEFORE).waitFor();
    await zh.getByTestId('history-toggle').click();
    await expect.poll(() => zh.getByTestId('history-panel').textContent()).toContain('撤销了修改');
    const edit = zh.locator('[data-testid=history-change][data-kind=EDIT]').filter({ hasText: AFTER }).first();
    expect(await edit.locator('.line em').textContent()).toBe('已撤销');
    expect(await zh.getByTestId('history-panel').textContent()).toContain('你');
    // Each changed field in words, never its internal name.
    const fields = await zh.getByTestId('history-panel').locator('dt').allTextContents();
    expect(fields).toContain('问题');
    expect(fields.join(' ')).not.toMatch(/[a-z]/);
  });

  it('should say on a phone, inside the screen and next to the buttons, why nothing was undone, and clear it at the next tap', async () => {
    const map = await call(suite.server.api.client, CREATE_MAP, { input: { title: 'Nothing done yet' } });
    page = (await openPage(suite.browser, 'en-US', 'phone')).page;
    await page.goto(`${suite.server.origin}/maps/${map.id}`);
    await page.getByTestId('workspace-header').waitFor();
    // Only the map's creation is in its history: the button is off, and the shortcut says why.
    await expect.poll(() => page.getByTestId('undo').isDisabled()).toBe(true);
    await page.keyboard.press('Control+z');
    const notice = page.getByTestId('history-notice');
    await expect.poll(() => notice.textContent()).toBe('Nothing of yours to undo since the map was created.');
    const box = (await notice.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'history-phone-en-nothing-to-undo');
    await page.getByTestId('map-title').tap();
    await expect.poll(() => notice.count()).toBe(0);
  });
});
