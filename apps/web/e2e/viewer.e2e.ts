import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countOf,
  en,
  findUser,
  mutatingControls,
  signedInPage,
  signInThroughForm,
  usersTable,
  waitForRows,
} from './support/app';
import { browserMissing, launch, newPage } from './support/browser';
import { VIEWER } from './support/env';

const t = en.usersList;
const a = en.userActions;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(browserMissing())('a viewer (users.view and roles.view only)', () => {
  it('signs in to the users list and finds no control that changes or exports users there', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await signInThroughForm(page, VIEWER);
    await page.waitForURL((url) => url.pathname === '/users');
    await waitForRows(page);

    const missing = {
      newUser: await countOf(page, 'link', t.newUser),
      export: await countOf(page, 'button', t.export.button),
      selectPage: await countOf(page, 'checkbox', t.table.selectPage),
      rowCheckboxes: await usersTable(page).getByRole('checkbox').count(),
      bulkBar: await countOf(page, 'region', t.selection.label),
      trashFilterCard: await page.getByRole('button', { name: new RegExp(`^${t.stats.trashed}`) }).count(),
    };
    expect(missing).toEqual({ newUser: 0, export: 0, selectPage: 0, rowCheckboxes: 0, bulkBar: 0, trashFilterCard: 0 });

    // A row's menu offers only to open the user.
    const firstName = (await usersTable(page).locator('tbody tr a[href^="/users/"]').first().textContent()) ?? '';
    await page
      .getByRole('button', { name: t.rowActions.open(firstName), exact: true })
      .first()
      .click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const items = (await menu.getByRole('menuitem').allTextContents()).map((text) => text.trim());
    expect(items).toEqual([t.rowActions.view]);
    await page.keyboard.press('Escape');

    // Filters: no trash view for someone who cannot restore or purge.
    await page.getByRole('button', { name: new RegExp(`^${t.filters.button}`) }).click();
    const filters = page.getByRole('dialog', { name: t.filters.heading });
    await filters.waitFor();
    expect(await filters.getByLabel(t.filters.trash, { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('finds no edit, status, or delete control on a user’s page, and cannot open the edit form', async () => {
    const { context, page } = await signedInPage(browser, VIEWER);
    const user = await findUser(page, 'knuth', 'filters[is_active]=inactive');
    await page.goto(`/users/${user.id}`);
    await page.getByRole('heading', { level: 1, name: user.name }).waitFor();
    await page.waitForLoadState('networkidle');

    expect(await mutatingControls(page)).toEqual([]);
    expect(await page.getByText(a.dangerZone, { exact: true }).count()).toBe(0);
    // Roles stay readable: they link to their pages.
    expect(await page.getByRole('region', { name: en.userPage.rolesTitle }).count()).toBe(1);

    await page.goto(`/users/${user.id}/edit`);
    await page.getByText(en.common.forbiddenTitle, { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: en.userForm.name }).count()).toBe(0);
    expect(await countOf(page, 'button', en.userForm.save)).toBe(0);
    await page.goto('/users/new');
    await page.getByText(en.common.forbiddenTitle, { exact: true }).waitFor();
    expect(await countOf(page, 'button', en.userForm.create)).toBe(0);
    await context.close();
  });
});
