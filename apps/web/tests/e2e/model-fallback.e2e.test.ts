import { PROCESS_NODE } from '@thinkingmap/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import { horizontalOverflow, launchBrowser, openPage, screenshot } from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

describe.skipIf(!run)('an endpoint that refuses json_schema and stream_options (Chromium, real server)', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startWebServer({ refuse: { responseFormat: 'json_schema', streamOptions: true } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('should mark the tokens counted locally with ≈ on the dashboard, in English and in Chinese on a phone', async () => {
    const cafe = await createMapWithTree(server.api, 'Open a café', { 'Where should it be?': {} });
    await call(server.api.client, PROCESS_NODE, { nodeId: cafe.ids.get('Where should it be?')!, intent: 'CONCLUDE' });
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${server.origin}/dashboard`);
      const mark = page.getByTestId('tokens-by-map').getByTestId('tokens-estimated');
      await mark.waitFor();
      expect(await mark.textContent()).toBe('≈');
      expect(await mark.getAttribute('title')).toContain('the model endpoint reported no usage');
      await screenshot(page, 'model-fallback-en-dashboard');
    } finally {
      await context.close();
    }
    const phone = (await openPage(browser, 'zh-CN', 'phone')).page;
    try {
      await phone.goto(`${server.origin}/dashboard`);
      const mark = phone.getByTestId('tokens-by-map').getByTestId('tokens-estimated');
      await mark.waitFor();
      expect(await mark.getAttribute('title')).toContain('模型端点没有报告用量');
      expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
      await screenshot(phone, 'model-fallback-zh-phone-dashboard');
    } finally {
      await phone.context().close();
    }
  });

  it('should say why a consultation turn failed and keep the message, then answer it on the next turn', async () => {
    const { mapId } = await createMapWithTree(server.api, 'Tea shop', {});
    const { page, context } = await openPage(browser);
    try {
      server.model.failNextFrontReply();
      await page.goto(`${server.origin}/maps/${mapId}`);
      await page.getByTestId('consult-toggle').click();
      await page.getByTestId('start-consultation').click();
      const input = page.getByTestId('consultation-input');
      await input.fill('I want to sell my handmade tea online');
      await input.press('Enter');
      const failed = page.getByTestId('consultation-failed');
      await failed.waitFor();
      expect(await failed.getAttribute('data-code')).toBe('MODEL_UNAVAILABLE');
      expect(await failed.textContent()).toContain('The last turn failed');
      expect(await page.getByTestId('consultation-message').count()).toBe(1);
      await screenshot(page, 'model-fallback-en-consultation-failed');

      await input.fill('Where do I start?');
      await input.press('Enter');
      await expect.poll(() => page.getByTestId('consultation-message').count()).toBeGreaterThanOrEqual(3);
      await expect.poll(() => failed.count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
