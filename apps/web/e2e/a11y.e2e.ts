import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launch, seriousA11yViolations } from './support/browser';
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

const cases = APP_PAGES.flatMap((appPage) =>
  (['light', 'dark'] as const).map((theme) => ({ appPage, theme, title: `${appPage.title} (${theme})` })),
);

describe.skipIf(browserMissing())('accessibility (axe-core)', () => {
  it.each(cases)('$title has no serious or critical violation', async ({ appPage, theme }) => {
    const page = await visitor.open(appPage, { theme, width: 1280 });
    const violations = await seriousA11yViolations(page);
    const report = violations.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes} node${v.nodes === 1 ? '' : 's'})\n${v.examples.map((e) => `    • ${e}`).join('\n')}`,
    );
    expect(
      violations.length,
      `${appPage.name} (${theme}) at ${appPage.path(await visitor.ids())}:\n${report.join('\n')}`,
    ).toBe(0);
  });
});
