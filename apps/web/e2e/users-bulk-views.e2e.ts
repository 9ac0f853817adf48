import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserViaApi, en, signedInPage, usersTable } from './support/app';
import { browserMissing, launch, screenshot } from './support/browser';
import { RESULTS_DIR } from './support/env';

const t = en.usersList;

// The selection bar and every dialog it opens, at a desk (1280 px) and on a phone (390 px),
// saved as users-bulk-<view>-<width>.png (the whole page) and …-screen.png (what the screen shows).
// Nothing is confirmed: the users stay as they were.
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

const MEMBERS = 11;

let browser: Browser;
let word = '';
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  word = `Bulkview${Date.now()}`;
  const { context, page } = await signedInPage(browser);
  await page.goto('/users');
  // One more than a page, so "select all matching" is offered.
  for (let n = 1; n <= MEMBERS; n += 1)
    await createUserViaApi(page, { name: `${word} Member ${n}`, email: `${word.toLowerCase()}${n}@example.com` });
  await context.close();
});
afterAll(async () => {
  await browser?.close();
});

const bar = (page: Page) => page.getByRole('region', { name: t.selection.label, exact: true });

/** The list of the test's users with two of them ticked. */
async function twoSelected(page: Page) {
  await page.goto(`/users?q=${word}`);
  const rows = usersTable(page);
  await rows.getByRole('checkbox', { name: t.table.selectRow(`${word} Member ${MEMBERS}`) }).click();
  await rows.getByRole('checkbox', { name: t.table.selectRow(`${word} Member ${MEMBERS - 1}`) }).click();
  await bar(page).getByText(t.selection.count(2), { exact: true }).waitFor();
}

async function closeDialog(page: Page) {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
}

describe.skipIf(browserMissing())('the users list’s bulk views', () => {
  for (const size of WIDTHS) {
    it(`draws the selection bar, the checks and the role picker at ${size.width} px`, async () => {
      const { context, page } = await signedInPage(browser, undefined, size);
      const shot = async (view: string) => {
        await screenshot(page, `users-bulk-${view}-${size.width}`);
        await page.screenshot({ path: path.join(RESULTS_DIR, `users-bulk-${view}-${size.width}-screen.png`) });
      };

      await twoSelected(page);
      await shot('bar');

      // Two picked users: the dry run's report, synchronous.
      await bar(page).getByRole('button', { name: t.bulk.deactivate, exact: true }).click();
      const check = page.getByRole('dialog');
      await check.getByText(t.bulk.affected.deactivate(2), { exact: true }).waitFor();
      await shot('check-ids');
      await closeDialog(page);

      // A role action asks for its role first.
      await bar(page).getByRole('button', { name: t.bulk.addRole, exact: true }).click();
      const picker = page.getByRole('dialog');
      await picker.getByLabel(t.bulk.role.label, { exact: true }).selectOption({ label: 'viewer' });
      await shot('role-picker');
      await closeDialog(page);

      // Every match: the dry run is a job, followed in the dialog.
      // On a phone the page's checkbox heads the cards, outside their list.
      await page.getByRole('checkbox', { name: t.table.selectPage }).click();
      await bar(page)
        .getByRole('button', { name: t.selection.selectAllMatching(MEMBERS), exact: true })
        .click();
      await bar(page).getByText(t.selection.allMatching(MEMBERS), { exact: true }).waitFor();
      await shot('bar-matching');
      await bar(page).getByRole('button', { name: t.bulk.deactivate, exact: true }).click();
      const job = page.getByRole('dialog');
      await job.getByText(en.jobs.outcome.wouldChange(MEMBERS), { exact: true }).waitFor({ timeout: 30_000 });
      await shot('check-matching');
      await closeDialog(page);

      // A row's menu, as the server's actions decide it.
      await page.getByRole('button', { name: t.rowActions.open(`${word} Member ${MEMBERS - 2}`), exact: true }).click();
      await page.getByRole('menu').waitFor();
      await shot('row-menu');
      await page.keyboard.press('Escape');

      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(wide, 'no sideways scrolling').toBe(false);
      await context.close();
    });
  }
});
