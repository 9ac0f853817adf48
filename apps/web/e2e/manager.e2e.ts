import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiList, countOf, en, mutatingControls, signedInPage, usersTable } from './support/app';
import { browserMissing, captureViews, launch, screenshot, seriousA11yViolations } from './support/browser';
import { ADMIN, MANAGER } from './support/env';

const t = en.usersList;
const a = en.userActions;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The row menu's items for the user named `name` on the current list page. */
async function rowMenuItems(page: Page, name: string): Promise<string[]> {
  await page
    .getByRole('button', { name: t.rowActions.open(name), exact: true })
    .first()
    .click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const items = (await menu.getByRole('menuitem').allTextContents()).map((text) => text.trim());
  await page.keyboard.press('Escape');
  return items;
}

describe.skipIf(browserMissing())('a manager (users.update and users.setActive, not an administrator)', () => {
  it('finds no control that changes the administrator, on the list, the user page or the edit page', async () => {
    const { context, page } = await signedInPage(browser, MANAGER);
    const admin = (await apiList(page, `filters[email]=${encodeURIComponent(ADMIN.email)}`)).rows[0];
    if (!admin) throw new Error('the seeded administrator is not listed');

    await page.goto(`/users?q=${encodeURIComponent(ADMIN.email)}`);
    await usersTable(page).getByRole('link', { name: admin.name, exact: true }).waitFor();
    expect(await rowMenuItems(page, admin.name)).toEqual([t.rowActions.view]);

    await page.goto(`/users/${admin.id}`);
    await page.getByRole('heading', { level: 1, name: admin.name }).waitFor();
    await page.getByText(en.userPage.outrankedTitle, { exact: true }).waitFor();
    expect(await mutatingControls(page)).toEqual([]);
    expect(await page.getByText(a.dangerZone, { exact: true }).count()).toBe(0);
    // The page says why, naming what the manager lacks.
    expect(await page.getByText(/holds permissions you do not have \(users\.create/).count()).toBe(1);
    await screenshot(page, 'manager-views-administrator');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`/users/${admin.id}/edit`);
    await page.getByText(en.userForm.cannotEditTitle, { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: en.userForm.name }).count()).toBe(0);
    expect(await countOf(page, 'button', en.userForm.save)).toBe(0);
    await screenshot(page, 'manager-cannot-edit-administrator');
    await context.close();
  });

  it('keeps every control it may use on a viewer', async () => {
    const { context, page } = await signedInPage(browser, MANAGER);
    const viewer = (await apiList(page, 'filters[is_active]=active&perPage=100')).rows.find(
      (row) => row.actions.update.allowed && row.email !== MANAGER.email,
    );
    if (!viewer) throw new Error('no user the manager may change');
    await page.goto(`/users/${viewer.id}`);
    await page.getByRole('heading', { level: 1, name: viewer.name }).waitFor();
    expect(await countOf(page, 'link', a.edit)).toBe(1);
    expect(await countOf(page, 'button', a.deactivate)).toBe(1);
    expect(await page.getByText(en.userPage.outrankedTitle, { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('grants a viewer a permission it holds directly; the ones it lacks are locked, with the reason', async () => {
    const { context, page } = await signedInPage(browser, MANAGER);
    const viewer = (await apiList(page, 'filters[is_active]=active&perPage=100')).rows.find(
      (row) => row.actions.update.allowed && row.email !== MANAGER.email,
    );
    if (!viewer) throw new Error('no user the manager may change');
    const matrix = page.getByRole('group', { name: en.userForm.directTitle, exact: true });
    const exportBox = matrix.getByRole('checkbox', { name: 'Export users', exact: true });
    const saveWith = async (on: boolean) => {
      await page.goto(`/users/${viewer.id}/edit`);
      await exportBox.waitFor();
      if ((await exportBox.isChecked()) !== on) await exportBox.click();
      await page.getByRole('button', { name: en.userForm.save }).click();
      await page.waitForURL(`**/users/${viewer.id}`);
    };

    await page.goto(`/users/${viewer.id}/edit`);
    const locked = matrix.getByRole('checkbox', { name: 'Delete users', exact: true });
    await locked.waitFor();
    expect(await locked.getAttribute('aria-disabled')).toBe('true');
    await locked.hover();
    await page.getByText('you do not hold users.delete', { exact: false }).first().waitFor();
    // The whole form, from its top, with the lock's reason open on the box under the pointer.
    await page.evaluate(() => window.scrollTo(0, 0));
    await captureViews(page, 'manager-direct-permissions', 1700);

    await saveWith(true);
    // The user's page says where the new permission comes from.
    await page
      .getByText(/granted directly/i)
      .first()
      .waitFor();
    await saveWith(false);
    expect(await page.getByText(/granted directly/i).count()).toBe(0);
    await context.close();
  });
});
