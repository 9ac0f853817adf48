import fs from 'node:fs';
import { USER_COLUMNS, type UserColumnKey, type UserRow } from '@app/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiList,
  en,
  expectShownIds,
  findUser,
  idsOf,
  signedInPage,
  usersTable,
  waitForRows,
  waitForToast,
} from './support/app';
import { browserMissing, launch } from './support/browser';
import { jobTitleOf } from './support/jobs';

// Each test works on its own demo users (by surname), so they can run in any order:
// Schmidt → bulk deactivate; Dubois → edit; Wirth → delete; Chen → role page; export is read-only.
const t = en.usersList;
const j = en.jobs;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Every row matching a query, all pages, in the API's order. */
async function allRows(page: Page, query: string): Promise<UserRow[]> {
  const rows: UserRow[] = [];
  for (let n = 1; ; n += 1) {
    const result = await apiList(page, `${query}&perPage=100&page=${n}`);
    rows.push(...result.rows);
    if (n >= result.meta.pageCount) return rows;
  }
}

/** RFC 4180: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

describe.skipIf(browserMissing())('acting on users', () => {
  it('selects all matching users across pages and deactivates them as a job after its dry run', async () => {
    const { context, page } = await signedInPage(browser);
    const before = await allRows(page, 'q=schmidt');
    expect(before.length).toBeGreaterThan(10); // more than one page, so "select all matching" is needed
    const activeBefore = before.filter((row) => row.is_active).length;
    expect(activeBefore).toBeGreaterThan(0);

    await page.goto('/users?q=schmidt');
    await waitForRows(page);
    await usersTable(page).getByRole('checkbox', { name: t.table.selectPage, exact: true }).click();
    const bar = page.getByRole('region', { name: t.selection.label, exact: true });
    await bar.getByText(t.selection.count(10), { exact: true }).waitFor();
    await bar.getByRole('button', { name: t.selection.selectAllMatching(before.length), exact: true }).click();
    await bar.getByText(t.selection.allMatching(before.length), { exact: true }).waitFor();

    await bar.getByRole('button', { name: t.bulk.deactivate, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t.bulk.titleAll(t.bulk.deactivate, before.length, true) });
    await dialog.waitFor();
    // The dry run's counts come first; nothing has changed yet.
    await dialog.getByText(j.outcome.wouldChange(activeBefore), { exact: true }).waitFor({ timeout: 30_000 });
    expect(await dialog.textContent()).toContain(t.bulk.noneSkipped);
    expect((await allRows(page, 'q=schmidt')).filter((row) => row.is_active)).toHaveLength(activeBefore);

    await dialog.getByRole('button', { name: t.bulk.confirmAll(t.bulk.deactivate, activeBefore), exact: true }).click();
    // The job's page follows it to the end, and says so.
    await page.waitForURL(/\/jobs\/\d+$/);
    const title = await jobTitleOf(page, Number(new URL(page.url()).pathname.split('/').pop()));
    await waitForToast(page, j.finishedToast.succeeded(title), 30_000);
    await page.getByText(j.statuses.succeeded, { exact: true }).first().waitFor();
    expect((await allRows(page, 'q=schmidt')).every((row) => !row.is_active)).toBe(true);
    await context.close();
  });

  it('exports as CSV exactly the filtered, sorted list with its visible columns', async () => {
    const { context, page } = await signedInPage(browser);
    const { availableRoles } = await apiList(page, 'perPage=10');
    const manager = availableRoles.find((role) => role.name === 'manager');
    if (!manager) throw new Error('no manager role');
    const query = `sort=email&dir=desc&filters[role_id][]=${manager.id}&filters[is_active]=active`;
    const expected = await allRows(page, query);
    expect(expected.length).toBeGreaterThan(10); // more than the page on screen

    await page.goto(`/users?${query}`);
    await waitForRows(page);
    await expectShownIds(page, idsOf(expected.slice(0, 10)));
    // Hide a column: the export follows the table's visible columns.
    await page.getByRole('button', { name: t.view.columns, exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: t.columns.created_at, exact: true }).click();
    await expect.poll(() => usersTable(page).getByRole('columnheader', { name: t.columns.created_at }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: t.export.button, exact: true }).click();
    await page.getByText(t.export.headingAll(expected.length), { exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: t.export.csv, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^users-\d{8}-\d{6}\.csv$/);
    const bytes = fs.readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parseCsv(bytes.subarray(3).toString('utf8'));
    const visible: UserColumnKey[] = ['id', 'name', 'email', 'roles_count', 'roles', 'is_active'];
    expect(header).toEqual(visible.map((key) => USER_COLUMNS.find((column) => column.key === key)?.label));
    expect(records.map((record) => Number(record[0]))).toEqual(idsOf(expected));
    expect(records.map((record) => record[2])).toEqual(expected.map((row) => row.email));
    expect(records.every((record) => record[5] === 'true')).toBe(true);
    await context.close();
  });

  it('edits a user and shows the change on their page and in the list', async () => {
    const { context, page } = await signedInPage(browser);
    const user = await findUser(page, 'dubois', 'filters[is_active]=active');
    const renamed = `Renée Dubois-Lefèvre`;
    await page.goto(`/users/${user.id}`);
    await page.getByRole('heading', { level: 1, name: user.name }).waitFor();
    await page.getByRole('link', { name: en.userActions.edit, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/users/${user.id}/edit`);
    const name = page.getByLabel(en.userForm.name, { exact: true });
    await expect.poll(() => name.inputValue()).toBe(user.name);
    await name.fill(renamed);
    await page.getByRole('button', { name: en.userForm.save, exact: true }).click();

    await page.waitForURL((url) => url.pathname === `/users/${user.id}`);
    await waitForToast(page, en.userForm.saved);
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();

    await page.getByRole('link', { name: en.userPage.backToUsers, exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/users');
    await page.getByRole('searchbox', { name: t.search.label }).fill('lefèvre');
    await page.waitForURL((url) => url.searchParams.get('q') === 'lefèvre');
    await expectShownIds(page, [user.id]);
    expect(await usersTable(page).getByRole('link', { name: renamed, exact: true }).count()).toBe(1);
    await context.close();
  });

  it('deletes an inactive user from their page, says so, returns to the list, and Undo restores them', async () => {
    const { context, page } = await signedInPage(browser);
    const user = await findUser(page, 'wirth', 'filters[is_active]=inactive');
    await page.goto(`/users/${user.id}`);
    await page.getByRole('heading', { level: 1, name: user.name }).waitFor();
    await page.getByRole('button', { name: en.userActions.delete, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en.userActions.confirmDeleteTitle(user.name) });
    await dialog.getByRole('button', { name: en.userActions.delete, exact: true }).click();

    await page.waitForURL((url) => url.pathname === '/users');
    const toast = await waitForToast(page, en.userActions.deletedToast);
    expect(await toast.textContent()).toContain(en.userActions.deletedToastDescription(user.name));
    await waitForRows(page);
    expect(idsOf((await apiList(page, 'q=wirth&perPage=100')).rows)).not.toContain(user.id);
    expect(idsOf((await apiList(page, 'q=wirth&perPage=100&filters[trashed]=only')).rows)).toContain(user.id);

    await toast.getByRole('button', { name: en.userActions.undo, exact: true }).click();
    await waitForToast(page, en.userActions.restored(user.name));
    await expect.poll(async () => idsOf((await apiList(page, 'q=wirth&perPage=100')).rows)).toContain(user.id);
    await context.close();
  });

  it('opens a role from a user’s roles and shows its permissions and their count', async () => {
    const { context, page } = await signedInPage(browser);
    const user = await findUser(page, 'chen');
    await page.goto(`/users/${user.id}`);
    const roles = page.getByRole('region', { name: en.userPage.rolesTitle, exact: true });
    const link = roles.getByRole('link').first();
    await link.waitFor();
    const roleName = (await link.textContent())?.trim() ?? '';
    await link.click();
    await page.waitForURL((url) => /^\/roles\/\d+$/.test(url.pathname));
    const roleId = new URL(page.url()).pathname.split('/')[2];

    const res = await page.request.get(`/api/roles/${roleId}?with[]=permissions&withCount[]=permissions`);
    const { item } = (await res.json()) as {
      item: { name: string; permissions: { name: string }[]; permissions_count: number };
    };
    expect(item.name).toBe(roleName);
    expect(item.permissions_count).toBeGreaterThan(0);
    await page.getByRole('heading', { level: 1, name: item.name }).waitFor();
    await page.getByText(en.role.permissionCount(item.permissions_count), { exact: true }).waitFor();
    const card = page.getByRole('region', { name: en.role.permissionsTitle, exact: true });
    const granted = card.locator('li').filter({ hasText: en.role.granted });
    // Each row says "Granted" or "Not granted" (screen-reader text): count the granted ones exactly.
    const grantedCount = await card
      .locator('li .sr-only')
      .evaluateAll((spans, word) => spans.filter((s) => s.textContent === word).length, en.role.granted);
    expect(grantedCount).toBe(item.permissions_count);
    for (const permission of item.permissions) {
      await granted.filter({ hasText: permission.name }).first().waitFor();
    }
    await context.close();
  });
});
