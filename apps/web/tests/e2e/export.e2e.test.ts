import { readFileSync } from 'node:fs';
import { ADD_DEPENDENCY, SET_CONCLUSION } from '@thinkingmap/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api.ts';
import {
  card,
  horizontalOverflow,
  launchBrowser,
  openPage,
  screenshot,
  screenshotIfFailed,
} from './helpers/browser.ts';
import { chromiumAvailable } from './helpers/chromium.ts';
import { createMapWithTree } from './helpers/maps.ts';
import { startWebServer, type WebServer } from './helpers/web-server.ts';

const run = chromiumAvailable();

/** Chooses an entry of the export menu and returns the downloaded file's name and bytes. */
async function exportAs(page: Page, item: string | RegExp) {
  await page.getByTestId('export-menu').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: item }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

/** The texts of an SVG image as the browser parses it (null when it is not well-formed). */
function svgTexts(page: Page, svg: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return doc.getElementsByTagName('parsererror').length
      ? null
      : [...doc.querySelectorAll('text')].map((t) => t.textContent ?? '');
  }, svg);
}

/** Whether `bytes` start with PNG's signature, and the image's width and height (its IHDR). */
function pngOf(bytes: Buffer) {
  return {
    signature: [...bytes.subarray(0, 8)].join(',') === '137,80,78,71,13,10,26,10',
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
  };
}

/** The outline an outliner would read from an OPML file (parsed by the browser's XML parser): text and children. */
function outlineOf(page: Page, xml: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'text/xml');
    if (doc.getElementsByTagName('parsererror').length) return null;
    type Outline = [string, Outline[]];
    const read = (el: Element): Outline[] =>
      [...el.children].filter((c) => c.tagName === 'outline').map((c) => [c.getAttribute('text') ?? '', read(c)]);
    return read(doc.querySelector('body')!);
  }, xml);
}

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../packages/map-markdown/src/import/fixtures/${name}`, import.meta.url));

describe.skipIf(!run)('exporting and sharing a map', () => {
  let server: WebServer;
  let browser: Browser;
  let page: Page;
  let mapUrl = '';

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    const { mapId, ids } = await createMapWithTree(server.api, 'Café plan', {
      'Should I open a café?': { 'Where should it be?': { 'Near the station?': {} }, 'What will it cost?': {} },
    });
    await call(server.api.client, SET_CONCLUSION, {
      input: { nodeId: ids.get('Where should it be?')!, conclusion: 'Near the station.', kind: 'DECISION' },
    });
    await call(server.api.client, ADD_DEPENDENCY, {
      nodeId: ids.get('What will it cost?')!,
      dependsOnId: ids.get('Where should it be?')!,
    });
    mapUrl = `${server.origin}/maps/${mapId}`;
    const opened = await openPage(browser);
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    page = opened.page;
    await page.goto(mapUrl);
    await card(page, 'What will it cost?').waitFor();
  });

  afterEach((context) => screenshotIfFailed(page, context.task, 'failed-export'));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('should export the whole map as Markdown, OPML (for XMind and MindNode) and JSON', async () => {
    const markdown = await exportAs(page, 'Markdown (.md)');
    expect(markdown.name).toBe('Café-plan.md');
    expect(markdown.bytes.toString()).toContain('- [x] **Where should it be?** — Concluded');

    const opml = await exportAs(page, /^OPML/);
    expect(opml.name).toBe('Café-plan.opml');
    expect(await outlineOf(page, opml.bytes.toString())).toEqual([
      [
        'Should I open a café?',
        [
          ['Where should it be?', [['Near the station?', []]]],
          ['What will it cost?', []],
        ],
      ],
    ]);

    const json = JSON.parse((await exportAs(page, 'JSON (.json)')).bytes.toString());
    expect(json).toMatchObject({ format: 'thinkingmap', version: 2, map: { title: 'Café plan' } });
    expect(json.tree[0].children.map((c: { question: string }) => c.question)).toEqual([
      'Where should it be?',
      'What will it cost?',
    ]);
    expect(json.tree[0].children[1].dependsOn).toEqual([json.tree[0].children[0].id]);
  });

  it('should export the map as an SVG and a PNG image', async () => {
    const svg = await exportAs(page, 'SVG image (.svg)');
    expect(svg.name).toBe('Café-plan.svg');
    const texts = await svgTexts(page, svg.bytes.toString());
    expect(texts).toEqual(expect.arrayContaining(['Café plan', 'Should I open a café?', 'Concluded']));

    const png = await exportAs(page, 'PNG image (.png)');
    expect(png.name).toBe('Café-plan.png');
    const image = pngOf(png.bytes);
    expect(image.signature).toBe(true);
    // Drawn at twice the size for sharp text.
    expect(image.width).toBeGreaterThan(800);
    expect(image.height).toBeGreaterThan(300);
  });

  it('should export a branch, and copy a branch as Markdown to the clipboard', async () => {
    await card(page, 'Where should it be?').click();
    await page.getByTestId('export-menu').click();
    await page.getByRole('menuitemradio', { name: /The branch “Where should it be\?”/ }).click();
    await screenshot(page, 'export-en-01-menu');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Markdown (.md)' }).click(),
    ]);
    const branch = readFileSync((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toBe('Where-should-it-be.md');
    expect(branch).toMatch(/^# Where should it be\?/);
    expect(branch).toContain('Near the station?');
    expect(branch).not.toContain('What will it cost?');

    // The branch as images: its own questions only.
    const svg = await exportAs(page, 'SVG image (.svg)');
    expect(svg.name).toBe('Where-should-it-be.svg');
    const texts = (await svgTexts(page, svg.bytes.toString())) ?? [];
    expect(texts).toEqual(expect.arrayContaining(['Where should it be?', 'Near the station?']));
    expect(texts.join(' ')).not.toMatch(/What will it cost\?|Should I open a café\?/);
    const png = await exportAs(page, 'PNG image (.png)');
    expect(png.name).toBe('Where-should-it-be.png');
    const image = pngOf(png.bytes);
    expect(image.signature).toBe(true);
    expect(image.width).toBeGreaterThan(400);
    expect(image.height).toBeGreaterThan(100);

    await page.getByTestId('node-panel').getByRole('button', { name: 'Copy this branch as Markdown' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Copied as Markdown' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^# Where should it be\?/);
    expect(copied).toContain('  - [ ] **Near the station?** — Ready');
  });

  it.each([
    ['zh-CN', 'zh', 'desktop'],
    ['en-US', 'en', 'phone'],
    ['zh-CN', 'zh', 'phone'],
  ] as const)('should offer every export in %s (%s) on a %s', async (locale, lang, screen) => {
    const { page: other } = await openPage(browser, locale, screen);
    await other.goto(mapUrl);
    await card(other, 'What will it cost?').waitFor();
    await other.getByTestId('export-menu').click();
    expect(await other.getByRole('menuitem').count()).toBe(5);
    const menu = (await other.getByRole('menu').boundingBox())!;
    expect(menu.x).toBeGreaterThanOrEqual(0);
    expect(menu.x + menu.width).toBeLessThanOrEqual(screen === 'phone' ? 390 : 1440);
    await screenshot(other, `export-${lang}-${screen}`);
    await other.context().close();
  });

  it('should import a file on the New map page: picked, dropped, and refused in Chinese on a phone', async () => {
    const { context, page: importing } = await openPage(browser);
    await importing.goto(`${server.origin}/maps/new`);
    await importing.getByRole('heading', { name: 'Import a file' }).waitFor();
    await importing.getByTestId('import-file').setInputFiles({
      name: 'café.opml',
      mimeType: 'text/x-opml',
      buffer: fixture('xmind.opml'),
    });
    await importing.waitForURL(/\/maps\/c[a-z0-9]{24}$/);
    await card(importing, 'Foot traffic').waitFor();

    await importing.goto(`${server.origin}/maps/new`);
    const dropped = await importing.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'kyoto.md', { type: 'text/markdown' }));
      return transfer;
    }, fixture('list.md').toString());
    await importing.getByTestId('import-drop').dispatchEvent('drop', { dataTransfer: dropped });
    await importing.waitForURL(/\/maps\/c[a-z0-9]{24}$/);
    await card(importing, 'Where to stay').waitFor();
    await context.close();

    const { context: phoneContext, page: phone } = await openPage(browser, 'zh-CN', 'phone');
    await phone.goto(`${server.origin}/maps/new`);
    await phone.getByRole('heading', { name: '导入文件' }).waitFor();
    await phone.getByTestId('import-file').setInputFiles({
      name: 'broken.opml',
      mimeType: 'text/x-opml',
      buffer: Buffer.from('<opml version="2.0">\n<body>\n<outline text="a">\n</body></opml>'),
    });
    const alert = phone.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toMatch(/^无法导入该文件（line \d+, column \d+）：.+。未创建任何内容。$/);
    const pick = await phone.getByRole('button', { name: '选择文件' }).boundingBox();
    expect(pick!.height).toBeGreaterThanOrEqual(44);
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'phone-zh-import-refused');
    await phoneContext.close();
  });
});
