import { CREATE_MAP, CREATE_NODE, NODE, SET_CONCLUSION, UPDATE_MAP } from '@thinkingmap/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { card, openPage, screenshot } from './helpers/browser.ts';
import { browserSuite } from './helpers/browser-suite.ts';
import { chromiumAvailable } from './helpers/chromium.ts';

const run = chromiumAvailable();
const ROOT = 'Open a second café?';
const MARKET = 'How big is the market?';
const RENT = 'What will the rent be?';

describe.skipIf(!run)('a conclusion out of date in the web workspace (Chromium, real server)', () => {
  let page: Page;
  const suite = browserSuite(() => page);

  beforeAll(async () => {
    page = (await openPage(suite.browser)).page;
  });

  it('should mark the card and the panel, count it as open, say why in both languages and redo it for review', async () => {
    const client = suite.server.api.client;
    const map = await call(client, CREATE_MAP, { input: { title: 'Second café' } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: ROOT } });
    const market = await call(client, CREATE_NODE, { input: { mapId: map.id, parentId: root.id, question: MARKET } });
    await call(client, SET_CONCLUSION, { input: { nodeId: market.id, conclusion: 'Big enough.' } });
    await call(client, SET_CONCLUSION, { input: { nodeId: root.id, conclusion: 'Yes.' } });

    await page.goto(`${suite.server.origin}/maps/${map.id}`);
    await card(page, ROOT).waitFor();
    const progress = page.getByTestId('progress');
    const shown = async () =>
      `${await progress.getAttribute('data-done')}/${await progress.getAttribute('data-count')}`;
    await expect.poll(shown).toBe('2/2');

    // A sub-question added elsewhere: the root's conclusion no longer covers it.
    await call(client, CREATE_NODE, { input: { mapId: map.id, parentId: root.id, question: RENT } });
    await expect.poll(() => card(page, ROOT).getAttribute('data-stale')).toBe('CHILD_ADDED');
    // The card's accessible name is its visible words, the badge included.
    await expect(card(page, ROOT).getByTestId('stale-badge').textContent()).resolves.toContain(
      'Conclusion out of date',
    );
    await expect.poll(shown).toBe('1/3');

    await card(page, ROOT).click();
    const notice = page.getByTestId('stale-notice');
    await expect.poll(() => notice.textContent()).toContain('Conclusion out of date');
    expect(await notice.textContent()).toContain(`Because a sub-question was added: “${RENT}”.`);
    await screenshot(page, 'stale-conclusion-en');

    const { page: zh } = await openPage(suite.browser, 'zh-CN');
    await zh.goto(`${suite.server.origin}/maps/${map.id}`);
    await card(zh, ROOT).click();
    await expect.poll(() => zh.getByTestId('stale-notice').textContent()).toContain('结论已过时');
    expect(await zh.getByTestId('stale-notice').textContent()).toContain(`原因：新增了子问题（“${RENT}”）。`);
    await expect(zh.getByTestId('redo-conclusion').textContent()).resolves.toContain('重新得出结论');
    await zh.context().close();

    // Redo: the agent drafts again; nothing counts until the person accepts it.
    await notice.getByTestId('redo-conclusion').click();
    await page
      .getByTestId('agent-question')
      .getByRole('button', { name: 'Accept', exact: true })
      .waitFor({ timeout: 15_000 });
    expect((await call(client, NODE, { id: root.id })).staleReason).toBe('CHILD_ADDED');
    await page.getByTestId('agent-question').getByRole('button', { name: 'Accept', exact: true }).click();
    await expect.poll(() => card(page, ROOT).getAttribute('data-stale')).toBe('');
    await expect.poll(() => notice.count()).toBe(0);
  });
});
