import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { CHROMIUM, RESULTS_DIR } from './env';
import type { E2eServer } from './global-setup';

/**
 * This worker's server: VITEST_POOL_ID numbers the workers from 1, and global-setup started one
 * server per worker, so the files a worker runs share a server and no two files at once do.
 */
export function server(): E2eServer | undefined {
  const servers = inject('servers');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return servers[(worker - 1) % Math.max(servers.length, 1)];
}
export const baseUrl = () => server()?.baseUrl ?? '';
/** Where this run's build of the SPA is (what the server serves). */
export const distDir = () => inject('distDir');
/** True when global-setup found no Chromium (outside CI): the browser suites skip themselves. */
export const browserMissing = () => baseUrl() === '';

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

export interface ViewOptions {
  width?: number;
  height?: number;
  theme?: 'light' | 'dark';
}

/** A fresh browser context (own cookies and storage) at a viewport and colour scheme. */
export async function newPage(
  browser: Browser,
  opts: ViewOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    colorScheme: opts.theme ?? 'light',
    acceptDownloads: true,
  });
  if (opts.theme) {
    await context.addInitScript((theme) => window.localStorage.setItem('theme', theme), opts.theme);
  }
  return { context, page: await context.newPage() };
}

/** Saves `apps/web/test-results/<name>.png` (full page) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
  /** Up to five offending elements: selector, markup excerpt and axe's explanation. */
  examples: string[];
}

/**
 * Rules axe ships switched off (experimental) that every check runs: an accessible name must
 * contain the visible words (WCAG 2.5.3), since speech users say what they see.
 */
const EXTRA_RULES = ['label-content-name-mismatch'];

/** Runs axe-core in the page, with `EXTRA_RULES` on; returns serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Colours in motion (a dialog fading in, a row's highlight) read as low contrast half-way: axe
  // waits for the running animations to end, a second at most (a spinner's never does, and is
  // not waited for).
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY);
    const done = Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 1_000))]);
  });
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') refuses an inline <script>.
  // Once per document: its half megabyte parsed again for every view cost each capture seconds.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (extra) => {
    type Node = { target: unknown[]; html: string; failureSummary?: string };
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            options: { rules: Record<string, { enabled: boolean }> },
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Node[] }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { rules: Object.fromEntries(extra.map((id) => [id, { enabled: true }])) });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
      examples: v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `${n.target.join(' ')} — ${n.html.replace(/\s+/g, ' ').slice(0, 160)} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
        ),
    }));
  }, EXTRA_RULES);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Switches the page's theme in place (what stays open stays open). */
export async function showTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  // The theme's colours change through CSS transitions: the picture and axe's contrast check
  // wait for them to finish (a second at most: a page may restart one as it lays out), or they
  // see the colours half-way.
  await page.evaluate(async (dark) => {
    document.documentElement.classList.toggle('dark', dark);
    const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
    const done = Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 1_000))]);
  }, theme === 'dark');
}

/**
 * The page as it is now in the four views (light/dark, 1280/375 px wide, `height` tall), each
 * screenshot as `<name>-<theme>-<width>` and checked by axe; back to light at 1280 after.
 * `widths`: other widths, or another order.
 */
export async function captureViews(
  page: Page,
  name: string,
  height = 900,
  widths: readonly number[] = [1280, 375],
): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height });
    for (const theme of ['light', 'dark'] as const) {
      await showTheme(page, theme);
      await screenshot(page, `${name}-${theme}-${width}`);
      const violations = await seriousA11yViolations(page);
      expect(
        violations,
        `${name} ${theme} ${width}: ${violations.map((v) => `${v.id}: ${v.help}`).join('\n')}`,
      ).toEqual([]);
    }
  }
  await showTheme(page, 'light');
  await page.setViewportSize({ width: 1280, height });
}
