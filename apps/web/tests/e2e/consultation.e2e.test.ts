import { readFileSync } from 'node:fs';
import { CONSULTATION, CREATE_MAP, UPDATE_CONSULTATION_RECORD } from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { launchBrowser, openPage, screenshot, screenshotIfFailed } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { FRONT_REPLIES, ROOT_QUESTION, TEA_NOTE } from './helpers/scripted-model.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();
const FIRST = 'I want to sell my handmade tea online';

/** The stored messages the panel shows, as `ROLE: text`. */
const shownMessages = (page: Page) =>
  page
    .getByTestId('consultation-message')
    .evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute('data-role')}: ${n.querySelector('p')?.textContent}`));

describe.skipIf(!run)('the consultation panel (Chromium, real server, scripted model)', () => {
  let server: WebServer;
  let browser: Browser;
  let page: Page;
  let mapId: string;
  let consultationId: string;

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    page = (await openPage(browser)).page;
    mapId = (await call(server.api.client, CREATE_MAP, { input: { title: 'Tea shop' } })).id;
  });
  afterEach(async (context) => {
    await screenshotIfFailed(page, context.task);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('should start a consultation, stream the reply, and show the plan, a record and a note', async () => {
    await page.goto(`${server.origin}/maps/${mapId}`);
    await page.getByTestId('consult-toggle').click();
    const panel = page.getByTestId('consultation-panel');
    await expect.poll(() => panel.getByText('No consultation on this map yet.').count()).toBe(1);
    // The strategy is chosen in plain words; "Stop and start over" (INTERRUPT) is the default.
    expect(await page.getByTestId('strategy-INTERRUPT').isChecked()).toBe(true);
    await expect(panel.textContent()).resolves.toContain('answers again, taking both messages into account');
    await page.getByTestId('start-consultation').click();
    const input = page.getByTestId('consultation-input');
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    consultationId = (await panel.getAttribute('data-consultation-id')) ?? '';
    expect(consultationId).not.toBe('');
    expect(new URL(page.url()).searchParams.get('consultation')).toBe(consultationId);

    // Shift+Enter starts a new line; Enter sends.
    await input.fill('I want to sell');
    await input.press('Shift+Enter');
    expect(await input.inputValue()).toBe('I want to sell\n');
    expect(await page.getByTestId('consultation-message').count()).toBe(0);
    await input.fill(FIRST);
    const release = server.model.holdNextFrontReply();
    await input.press('Enter');

    // The reply streams: part of it shows while the model is still writing, then it is stored once.
    const streaming = page.getByTestId('consultation-streaming');
    await expect.poll(() => streaming.textContent()).toContain('Happy to help');
    expect(await streaming.textContent()).not.toContain(FRONT_REPLIES[0]);
    expect(await input.inputValue()).toBe('');
    expect(await shownMessages(page)).toEqual([`PERSON: ${FIRST}`]);
    await screenshot(page, 'consultation-streaming');
    release();
    await expect.poll(() => shownMessages(page)).toEqual([`PERSON: ${FIRST}`, `ASSISTANT: ${FRONT_REPLIES[0]}`]);
    await expect.poll(() => streaming.count()).toBe(0);
    // The live region says the new reply.
    await expect.poll(() => page.getByTestId('announcer').textContent()).toContain(FRONT_REPLIES[0]);
    await expect.poll(() => panel.getAttribute('data-busy')).toBe('false');

    // The plan with its steps and progress, and the progress log.
    await page.getByTestId('consultation-tab-plan').click();
    const steps = page.getByTestId('plan-steps').locator('li');
    await expect.poll(() => steps.count()).toBe(3);
    expect(await steps.nth(1).getAttribute('aria-current')).toBe('step');
    expect(await steps.nth(0).getAttribute('data-state')).toBe('done');
    expect(await page.getByTestId('plan-progress').textContent()).toBe('1 of 3 steps done');
    await expect(page.getByTestId('consultation-logs').textContent()).resolves.toContain('Sell handmade tea online');

    // The record, in its kind's group, with the message it came from.
    await page.getByTestId('consultation-tab-records').click();
    const record = page.getByTestId('records-REQUIREMENT').getByTestId('consultation-record');
    await expect.poll(() => record.getByTestId('record-text').textContent()).toBe('Sell handmade tea online');
    expect(await record.getByTestId('record-source').textContent()).toBe(`From your message: “${FIRST}”`);
    await screenshot(page, 'consultation-records');

    // The note: listed, read as rendered Markdown, downloaded.
    await page.getByTestId('consultation-tab-notes').click();
    const note = page.getByTestId('consultation-note');
    await expect.poll(() => note.getAttribute('data-note-path')).toBe(TEA_NOTE.path);
    await note.getByTestId('note-read').click();
    const content = page.getByTestId('note-content');
    await expect.poll(() => content.locator('h1').textContent()).toBe('Tea shop');
    expect(await content.locator('strong').textContent()).toBe('sold online');
    expect(await content.locator('li').count()).toBe(2);
    await screenshot(page, 'consultation-note');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('note-download').click()]);
    expect(download.suggestedFilename()).toBe('overview.md');
    expect(readFileSync((await download.path()) as string, 'utf8')).toBe(TEA_NOTE.content);
    await page.getByTestId('notes-back').click();
    await expect.poll(() => note.getByTestId('note-read').evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('should let the person edit and delete a record, and show a change made elsewhere', async () => {
    await page.getByTestId('consultation-tab-records').click();
    const requirement = page.getByTestId('records-REQUIREMENT').getByTestId('consultation-record');
    await requirement.getByTestId('record-edit').click();
    await page.getByTestId('record-kind').selectOption('DECISION');
    await page.getByTestId('record-content').fill('Sell tea and cups online');
    await page.getByTestId('record-save').click();
    const decision = page.getByTestId('records-DECISION').getByTestId('consultation-record');
    await expect.poll(() => decision.getByTestId('record-text').textContent()).toBe('Sell tea and cups online');
    expect(await page.getByTestId('records-REQUIREMENT').count()).toBe(0);
    // The keyboard is back on the record's edit button.
    await expect
      .poll(() => decision.getByTestId('record-edit').evaluate((el) => el === document.activeElement))
      .toBe(true);

    // A change from another place arrives live.
    const stored = await call(server.api.client, CONSULTATION, { id: consultationId });
    const [row] = stored.records;
    expect(row).toMatchObject({ kind: 'DECISION', content: 'Sell tea and cups online', version: 2 });
    await call(server.api.client, UPDATE_CONSULTATION_RECORD, {
      input: { id: row?.id ?? '', content: 'Sell tea, cups and teapots online', expectedVersion: 2 },
    });
    await expect
      .poll(() => decision.getByTestId('record-text').textContent())
      .toBe('Sell tea, cups and teapots online');

    await decision.getByTestId('record-delete').click();
    await decision.getByTestId('record-confirm-delete').click();
    await expect.poll(() => page.getByTestId('consultation-record').count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('consultation-tab-records').evaluate((el) => el === document.activeElement))
      .toBe(true);
    expect((await call(server.api.client, CONSULTATION, { id: consultationId })).records).toEqual([]);
  });

  it('should stop the running answer when the person writes again under INTERRUPT, and answer both', async () => {
    await page.getByTestId('consultation-tab-chat').click();
    const input = page.getByTestId('consultation-input');
    const release = server.model.holdNextFrontReply();
    await input.fill('I would also sell tea cups');
    await page.getByTestId('consultation-send').click();
    await expect.poll(() => page.getByTestId('consultation-streaming').textContent()).toContain('Tea cups');
    // While the assistant works, the composer still works and says what sending does now.
    await expect
      .poll(() => page.getByTestId('composer-busy').textContent())
      .toContain('Sending now stops it and it starts again with your new message.');
    await input.fill('Actually, only cups, no tea');
    await input.press('Enter');
    const expected = [
      `PERSON: ${FIRST}`,
      `ASSISTANT: ${FRONT_REPLIES[0]}`,
      'PERSON: I would also sell tea cups',
      'PERSON: Actually, only cups, no tea',
      `ASSISTANT: ${FRONT_REPLIES[2]}`,
    ];
    await expect.poll(() => shownMessages(page), { timeout: 15_000 }).toEqual(expected);
    await expect.poll(() => page.getByTestId('consultation-panel').getAttribute('data-busy')).toBe('false');
    release();
    // The stale answer was never stored, and nothing of it stays on screen.
    expect(await page.getByTestId('consultation-streaming').count()).toBe(0);
    const stored = await call(server.api.client, CONSULTATION, { id: consultationId });
    expect(stored.messages.map((m) => m.text)).not.toContain(FRONT_REPLIES[1]);
    await screenshot(page, 'consultation-interrupt');
  });

  it('should catch up after the connection drops', async () => {
    const { page: watcher } = await openPage(browser);
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
    await watcher.goto(`${server.origin}/maps/${mapId}?consultation=${consultationId}`);
    await expect.poll(() => watcher.getByTestId('consultation-message').count()).toBe(5);
    await expect.poll(() => watcher.getByTestId('live-state').getAttribute('data-state')).toBe('live');

    blocked = true;
    await Promise.all(sockets.splice(0).map((ws) => ws.close({ code: 1012, reason: 'test: drop' })));
    await expect.poll(() => watcher.getByTestId('live-state').getAttribute('data-state')).toBe('reconnecting');
    // Written in another window while this one is offline.
    await page.getByTestId('consultation-input').fill('What should a cup cost?');
    await page.getByTestId('consultation-input').press('Enter');
    await expect.poll(() => page.getByTestId('consultation-message').count()).toBe(7);
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThan(0);
    blocked = false;

    await expect.poll(() => watcher.getByTestId('consultation-message').count(), { timeout: 15_000 }).toBe(7);
    expect((await shownMessages(watcher)).slice(-2)).toEqual([
      'PERSON: What should a cup cost?',
      `ASSISTANT: ${FRONT_REPLIES[3]}`,
    ]);
    await watcher.context().close();
  });

  it('should work in Chinese on a phone: full screen, reachable composer, touch-sized controls', async () => {
    const { page: zh } = await openPage(browser, 'zh-CN', 'phone');
    await zh.goto(`${server.origin}/maps/${mapId}`);
    await zh.getByTestId('consult-toggle').click();
    const panel = zh.getByTestId('consultation-panel');
    await zh.getByTestId('consultation-item').first().click();
    await expect.poll(() => zh.getByTestId('consultation-message').count()).toBe(7);
    const box = await panel.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    expect(await zh.getByTestId('consultation-tab-chat').textContent()).toContain('对话');
    const strategy = zh.getByTestId('consultation-strategy');
    expect(await strategy.locator('option:checked').textContent()).toBe('停下重来');
    // The strategy changes for this consultation: stored, and the list says the new one.
    await strategy.selectOption('ENQUEUE');
    await zh.getByTestId('consultation-back').click();
    await expect.poll(() => zh.getByTestId('consultation-item').first().textContent()).toContain('排队处理');
    await zh.getByTestId('consultation-item').first().click();
    await expect.poll(() => strategy.locator('option:checked').textContent()).toBe('排队处理');
    await expect.poll(() => zh.getByTestId('consultation-message').count()).toBe(7);
    const send = await zh.getByTestId('consultation-send').boundingBox();
    expect(send && send.y + send.height).toBeLessThanOrEqual(844);
    for (const id of ['consultation-send', 'consultation-close', 'consultation-tab-records', 'consultation-strategy']) {
      const control = await zh.getByTestId(id).boundingBox();
      expect(control?.height, id).toBeGreaterThanOrEqual(44);
    }
    await zh.getByTestId('consultation-input').fill('茶具怎么定价？');
    await zh.getByTestId('consultation-send').click();
    await expect
      .poll(() => zh.getByTestId('consultation-message').last().locator('p').textContent(), { timeout: 15_000 })
      .toBe(FRONT_REPLIES[4]);
    await screenshot(zh, 'consultation-phone-zh');
    await zh.getByTestId('consultation-tab-plan').click();
    await expect.poll(() => zh.getByTestId('plan-progress').textContent()).toBe('已完成 1/3 步');
    await zh.getByTestId('consultation-tab-notes').click();
    await zh.getByTestId('note-read').click();
    await expect.poll(() => zh.getByTestId('note-content').locator('h1').textContent()).toBe('Tea shop');
    await screenshot(zh, 'consultation-phone-zh-note');
    // Escape closes the panel and the keyboard goes back to the button that opened it.
    await zh.getByTestId('notes-back').click();
    await zh.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    await zh.context().close();
  });

  it('should start a consultation from the home page without a map: the map is made from the problem', async () => {
    await page.goto(server.origin);
    await page.getByTestId('home-consult').click();
    await page.getByTestId('home-problem').fill(ROOT_QUESTION);
    await page.getByTestId('strategy-ENQUEUE').check();
    await page.getByTestId('home-consult-start').click();
    await page.waitForURL(/\/maps\/[^/?]+\?consultation=/);
    const panel = page.getByTestId('consultation-panel');
    await expect.poll(() => shownMessages(page)).toEqual([`PERSON: ${ROOT_QUESTION}`]);
    expect(await page.getByTestId('consultation-strategy').locator('option:checked').textContent()).toBe(
      'Wait your turn',
    );
    // The map's understanding waits for the person; the panel says so.
    await page.getByTestId('understanding').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('consultation-understanding').count()).toBe(1);
    await screenshot(page, 'consultation-from-home');
    await page.getByTestId('understanding').getByRole('button', { name: 'Yes, that is it' }).click();
    await expect.poll(() => page.getByTestId('consultation-understanding').count(), { timeout: 15_000 }).toBe(0);
    // Once understood, the assistant answers the problem.
    await expect.poll(() => page.getByTestId('consultation-message').count(), { timeout: 15_000 }).toBe(2);
    expect(await panel.getAttribute('data-consultation-id')).toBe(new URL(page.url()).searchParams.get('consultation'));
  });
});
