import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

/** Where screenshots go (git-ignored). */
export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../test-results/screenshots');

/** Launches Debian's Chromium headless. */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** The screens the workspace is checked on: a desktop and a phone (touch, mobile viewport). */
export const SCREENS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
  smallPhone: { width: 360, height: 740 },
  tablet: { width: 820, height: 1180 },
} as const;
export type ScreenName = keyof typeof SCREENS;

/** A fresh browser context (its own storage, like another window of another person) with one page. */
export async function openPage(
  browser: Browser,
  locale = 'en-US',
  screen: ScreenName = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const touch = screen !== 'desktop';
  const context = await browser.newContext({
    locale,
    viewport: SCREENS[screen],
    isMobile: touch,
    hasTouch: touch,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[page console] ${message.text()}`);
  });
  return { context, page };
}

/** The test id of the nearest element around the keyboard focus that has one (null: the focus is on the body). */
export function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null);
}

/** Saves a screenshot of the page as `name`.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/** The tree card of the node whose question is `question` (exactly), in either language. */
export function card(page: Page, question: string) {
  return page.locator('[role=treeitem][data-node-id]').filter({
    has: page.locator(`.question:text-is(${JSON.stringify(question)})`),
  });
}

/** Selects a node by clicking its card and waits for its panel. */
export async function selectNode(page: Page, question: string): Promise<void> {
  await card(page, question).click();
  await expect
    .poll(() => page.getByTestId('node-panel').locator('[data-field="question"] .value').textContent())
    .toBe(question);
}

/** The canvas's pan and zoom, read from the one transform it applies to the map. */
export async function viewportOf(page: Page): Promise<{ x: number; y: number; k: number }> {
  const style = (await page.getByTestId('viewport').getAttribute('style')) ?? '';
  const [, x, y, k] = style.match(/translate\(([-\d.]+)px, ([-\d.]+)px\) scale\(([-\d.e]+)\)/) ?? [];
  return { x: Number(x), y: Number(y), k: Number(k) };
}

/** Saves a screenshot of `page` when the test that just ran failed (in an `afterEach`). */
export async function screenshotIfFailed(
  page: Page | undefined,
  task: { name: string; result?: { state?: string } },
  prefix = 'failed',
): Promise<void> {
  if (page && task.result?.state === 'fail') await screenshot(page, `${prefix}-${task.name.replace(/\W+/g, '-')}`);
}

/** How far the page reaches past the right edge of the window (0: no sideways scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * The header's controls that do not fit on the screen (cut off by the header instead of overflowing the page,
 * which {@link horizontalOverflow} cannot see), and the search box's width.
 */
export function headerFit(page: Page): Promise<{ offScreen: string[]; searchWidth: number }> {
  return page.getByTestId('workspace-header').evaluate((header) => {
    const offScreen = [...header.querySelectorAll<HTMLElement>('button, input, a')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.left < 0 || box.right > window.innerWidth || box.width < 24;
      })
      .map((el) => el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? el.textContent?.trim() ?? '?');
    const search = header.querySelector<HTMLElement>('#map-search');
    return { offScreen, searchWidth: Math.round(search?.getBoundingClientRect().width ?? 0) };
  });
}

/** A violation axe-core reports: the rule, its impact and where. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (WCAG 2.x A and AA rules, best practices) and returns the serious and critical
 * violations; `within` limits it to a part (a panel or menu opened on a page already checked).
 */
export async function seriousViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  const builder = new AxeBuilder({ page }).withTags([
    'wcag2a',
    'wcag2aa',
    'wcag21a',
    'wcag21aa',
    'wcag22aa',
    'best-practice',
  ]);
  const result = await (within ? builder.include(within) : builder).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}

/**
 * The visible controls smaller than `min` px in either direction (WCAG 2.2 target size): buttons, links, fields,
 * summaries; a radio or checkbox counts by its label, which takes its taps. Each named by its label or text.
 */
export function smallTargets(page: Page, min = 24): Promise<string[]> {
  return page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>(
      'button, a[href], input, select, textarea, summary, [role="button"], [role="tab"], [role^="menuitem"]',
    );
    return [...controls]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => !(el instanceof HTMLInputElement && el.type === 'hidden'))
      .map((el) => {
        const choice = el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox');
        const target = (choice && el.closest('label')) || el;
        const box = target.getBoundingClientRect();
        return { el, box };
      })
      .filter(({ box }) => box.width > 0 && box.height > 0 && (box.width < min || box.height < min))
      .map(({ el, box }) => {
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName;
        return `${name || el.tagName} (${Math.round(box.width)}×${Math.round(box.height)})`;
      });
  }, min);
}
