import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage, usersTable, waitForRows } from './support/app';
import { browserMissing, launch, screenshot, seriousA11yViolations } from './support/browser';
import { ADMIN } from './support/env';
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

const t = en.usersList;

// The pages above are checked as they open; a list in use shows more: the filter button's count,
// the chips, a selected row's checkbox and the selection bar (on a phone, cards instead of a table).
describe.skipIf(browserMissing())('accessibility of a list in use (axe-core)', () => {
  it.each([1280, 375])('a filtered users list with a row selected, %i px', async (width) => {
    const { context, page } = await signedInPage(browser, ADMIN, { width });
    await page.goto('/users?filters[is_active]=active');
    await waitForRows(page);
    await page.getByRole('button', { name: t.filters.buttonCount(1), exact: true }).waitFor();
    await usersTable(page).locator(':is(tbody tr, li)').first().getByRole('checkbox').click();
    await page.getByRole('region', { name: t.selection.label, exact: true }).waitFor();
    const violations = await seriousA11yViolations(page);
    expect(violations, violations.map((v) => `${v.id}: ${v.help}\n${v.examples.join('\n')}`).join('\n')).toEqual([]);
    await screenshot(page, `a11y-users-list-in-use-${width}`);
    await context.close();
  });
});
