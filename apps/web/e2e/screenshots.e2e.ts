import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launch, screenshot } from './support/browser';
import { APP_PAGES, PageVisitor } from './support/pages';

let browser: Browser;
let visitor: PageVisitor;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  visitor = new PageVisitor(browser);
});
afterAll(async () => {
  await visitor?.close();
  await browser?.close();
});

const VIEWS = [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 1280 },
  { theme: 'light', width: 375 },
  { theme: 'dark', width: 375 },
] as const;

describe.skipIf(browserMissing())('screenshots (apps/web/test-results/<page>-<theme>-<width>.png)', () => {
  it.each(APP_PAGES)(
    'captures $title in light and dark, 1280 and 375 px wide, without sideways scrolling',
    async (appPage) => {
      // The four views load side by side, each in its own context.
      const results = await Promise.all(
        VIEWS.map(async (view) => {
          const page = await visitor.open(appPage, view);
          const name = `${appPage.name}-${view.theme}-${view.width}`;
          const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          const file = await screenshot(page, name);
          return { name, view, dark, scrollWidth, bytes: fs.statSync(file).size };
        }),
      );
      // The theme asked for is the one shown, and every file holds a real picture.
      expect(results.map((r) => [r.name, r.dark])).toEqual(results.map((r) => [r.name, r.view.theme === 'dark']));
      for (const r of results) expect(r.bytes, r.name).toBeGreaterThan(5_000);
      const overflowing = results
        .filter((r) => r.scrollWidth > r.view.width)
        .map((r) => `${r.name}: ${r.scrollWidth}px wide`);
      expect(overflowing, 'pages wider than the viewport (they scroll sideways)').toEqual([]);
    },
  );
});
