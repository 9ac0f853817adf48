import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiList,
  createUserViaApi,
  en,
  expectShownIds,
  idsOf,
  searchOf,
  signedInPage,
  usersTable,
  waitForRows,
  waitForToast,
} from './support/app';
import { browserMissing, launch, screenshot } from './support/browser';

const t = en.usersList;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The query string of the page, as the API takes it (the SPA writes the contract's format). */
const queryOf = (page: Page) => new URL(page.url()).search.replace(/^\?/, '');

/** The table shows what `GET /api/users` answers for the page's own URL. */
async function expectTableMatchesUrl(page: Page) {
  const expected = await apiList(page, queryOf(page));
  await expectShownIds(page, idsOf(expected.rows));
  const { page: current, perPage, total } = expected.meta;
  const from = total === 0 ? 0 : (current - 1) * perPage + 1;
  await page.getByText(t.pagination.range(from, Math.min(current * perPage, total), total), { exact: true }).waitFor();
  return expected;
}

const chip = (page: Page, label: string, value: string) =>
  page.getByRole('button', { name: t.filters.removeChip(label, value), exact: true });

async function openList(query = '') {
  const view = await signedInPage(browser);
  await view.page.goto(`/users${query}`);
  await waitForRows(view.page);
  return view;
}

async function applyFilters(page: Page, set: { roles?: string[]; status?: string }) {
  await page.getByRole('button', { name: new RegExp(`^${t.filters.button}`) }).click();
  const dialog = page.getByRole('dialog', { name: t.filters.heading });
  await dialog.waitFor();
  for (const role of set.roles ?? []) await dialog.getByRole('checkbox', { name: role, exact: true }).check();
  if (set.status) await dialog.getByLabel(t.filters.status, { exact: true }).selectOption({ label: set.status });
  await dialog.getByRole('button', { name: t.filters.apply, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe.skipIf(browserMissing())('the users list', () => {
  it('narrows the list to a search once typing pauses, without a request per keystroke', async () => {
    const { context, page } = await openList();
    const asked: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!url.pathname.includes('users.list')) return;
      const input = JSON.parse(url.searchParams.get('input') ?? '{}') as Record<string, { q?: string }>;
      for (const call of Object.values(input)) asked.push(call.q ?? '');
    });
    const box = page.getByRole('searchbox', { name: t.search.label, exact: true });
    await box.pressSequentially('turing', { delay: 40 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'turing');
    const expected = await expectTableMatchesUrl(page);
    expect(expected.meta.total).toBeGreaterThan(0);
    expect(expected.meta.total).toBeLessThan(250);
    for (const row of expected.rows) expect(`${row.name} ${row.email}`.toLowerCase()).toContain('turing');
    // Debounced: one request for the word, none for the half-typed ones.
    expect(asked.filter((q) => q === 'turing')).toHaveLength(1);
    expect(asked.filter((q) => q !== '' && q !== 'turing')).toEqual([]);
    await chip(page, t.filters.chip.search, 'turing').waitFor();
    await context.close();
  });

  it('filters by role and by status, shows them as chips, and drops a filter when its chip is removed', async () => {
    const { context, page } = await openList();
    await applyFilters(page, { roles: ['manager'], status: t.filters.statusInactive });
    const params = searchOf(page);
    expect(params.get('filters[is_active]')).toBe('inactive');
    expect(params.getAll('filters[role_id][]')).toHaveLength(1);
    const filtered = await expectTableMatchesUrl(page);
    expect(filtered.meta.total).toBeGreaterThan(0);
    expect(filtered.rows.every((row) => !row.is_active && row.roles_count > 0)).toBe(true);
    await page.getByRole('button', { name: t.filters.buttonCount(2), exact: true }).waitFor();

    await chip(page, t.filters.chip.roles, 'manager').waitFor();
    await chip(page, t.filters.chip.status, t.filters.statusInactive).click();
    await page.waitForURL((url) => !url.searchParams.has('filters[is_active]'));
    await expect.poll(() => chip(page, t.filters.chip.status, t.filters.statusInactive).count()).toBe(0);
    const managers = await expectTableMatchesUrl(page);
    expect(managers.meta.total).toBeGreaterThan(filtered.meta.total);

    await page.getByRole('button', { name: t.filters.clearAll, exact: true }).click();
    await page.waitForURL((url) => url.search === '');
    expect((await expectTableMatchesUrl(page)).meta.total).toBeGreaterThan(managers.meta.total);
    await context.close();
  });

  it('sorts by a column header, with the order in the URL and in the rows', async () => {
    const { context, page } = await openList();
    const header = usersTable(page).getByRole('columnheader', { name: t.columns.name, exact: true });
    await header.getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'name' && url.searchParams.get('dir') === 'asc');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    const asc = await expectTableMatchesUrl(page);
    const names = asc.rows.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));

    await header.getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('dir') === 'desc');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    const desc = await expectTableMatchesUrl(page);
    expect(idsOf(desc.rows)).not.toEqual(idsOf(asc.rows));
    // Columns the API cannot sort by have no sort control.
    const roles = usersTable(page).getByRole('columnheader', { name: t.columns.roles_count, exact: true });
    expect(await roles.getByRole('button').count()).toBe(0);
    await context.close();
  });

  it('moves between pages and changes the page size, saying which rows are shown', async () => {
    const { context, page } = await openList();
    const first = await expectTableMatchesUrl(page);
    await page.getByRole('button', { name: t.pagination.next, exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    const second = await expectTableMatchesUrl(page);
    await page.getByText(t.pagination.range(11, 20, first.meta.total), { exact: true }).waitFor();
    expect(idsOf(second.rows).some((id) => idsOf(first.rows).includes(id))).toBe(false);

    await page.getByLabel(t.pagination.perPage, { exact: true }).selectOption('25');
    await page.waitForURL((url) => url.searchParams.get('perPage') === '25' && !url.searchParams.has('page'));
    await expectTableMatchesUrl(page);
    expect(await usersTable(page).locator('tbody tr').count()).toBe(25);
    await page.getByText(t.pagination.range(1, 25, first.meta.total), { exact: true }).waitFor();

    await page.getByRole('button', { name: t.pagination.last, exact: true }).click();
    const pageCount = Math.ceil(first.meta.total / 25);
    await page.waitForURL((url) => url.searchParams.get('page') === String(pageCount));
    await page
      .getByText(t.pagination.range((pageCount - 1) * 25 + 1, first.meta.total, first.meta.total), { exact: true })
      .waitFor();
    await expectTableMatchesUrl(page);
    await context.close();
  });

  it('goes back to the previous view with the browser’s Back button', async () => {
    const { context, page } = await openList();
    const start = await expectTableMatchesUrl(page);
    await usersTable(page).getByRole('columnheader', { name: t.columns.email }).getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'email');
    const sorted = await expectTableMatchesUrl(page);
    await page.getByRole('button', { name: t.pagination.next, exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expectTableMatchesUrl(page);

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'email' && !url.searchParams.has('page'));
    await expectShownIds(page, idsOf(sorted.rows));
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/users' && url.search === '');
    await expectShownIds(page, idsOf(start.rows));
    const email = usersTable(page).getByRole('columnheader', { name: t.columns.email });
    await expect.poll(() => email.getAttribute('aria-sort')).toBe('none');
    await context.close();
  });

  it('reproduces a view from its copied URL in a new browser context', async () => {
    const { context, page } = await openList();
    await applyFilters(page, { roles: ['viewer'], status: t.filters.statusActive });
    await usersTable(page).getByRole('columnheader', { name: t.columns.created_at }).getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'created_at');
    await page.getByRole('button', { name: t.pagination.next, exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    const shown = await expectTableMatchesUrl(page);
    const copied = page.url();
    const range = await page.getByText(/^Showing /).textContent();
    await context.close();

    const other = await signedInPage(browser);
    await other.page.goto(copied);
    await waitForRows(other.page);
    await expectShownIds(other.page, idsOf(shown.rows));
    expect(await other.page.getByText(/^Showing /).textContent()).toBe(range);
    await chip(other.page, t.filters.chip.roles, 'viewer').waitFor();
    await chip(other.page, t.filters.chip.status, t.filters.statusActive).waitFor();
    const created = usersTable(other.page).getByRole('columnheader', { name: t.columns.created_at });
    expect(await created.getAttribute('aria-sort')).toBe('ascending');
    await other.context.close();
  });

  it('keeps the chosen row density across a reload', async () => {
    const { context, page } = await openList();
    const compact = page.getByRole('radio', { name: t.view.compact, exact: true });
    expect(await compact.isChecked()).toBe(false);
    const padding = () =>
      usersTable(page)
        .locator('tbody tr td')
        .nth(1)
        .evaluate((cell) => getComputedStyle(cell).paddingTop);
    const comfortablePadding = await padding();
    // The radio is visually hidden inside its labelled icon: click what a user sees.
    await page.getByTitle(t.view.compact, { exact: true }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('users_table_density'))).toBe('compact');
    await expect.poll(padding).not.toBe(comfortablePadding);

    await page.reload();
    await waitForRows(page);
    expect(await page.getByRole('radio', { name: t.view.compact, exact: true }).isChecked()).toBe(true);
    expect(await padding()).not.toBe(comfortablePadding);

    await page.getByTitle(t.view.comfortable, { exact: true }).click();
    expect(await page.getByRole('radio', { name: t.view.comfortable, exact: true }).isChecked()).toBe(true);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('users_table_density'))).toBe('comfortable');
    await context.close();
  });

  it('gives a role to the selected users, shows it on their rows (a phone too), and takes it back', async () => {
    const { context, page } = await openList();
    const word = `Rolebulk${Date.now()}`;
    for (const n of [1, 2])
      await createUserViaApi(page, { name: `${word} Member ${n}`, email: `${word.toLowerCase()}${n}@example.com` });
    await page.goto(`/users?q=${word}`);
    await expectShownIds(page, idsOf((await apiList(page, `q=${word}`)).rows));
    const rolesOf = async () => (await apiList(page, `q=${word}`)).rows.map((row) => row.roles);
    expect(await rolesOf()).toEqual([[], []]);

    await usersTable(page).getByRole('checkbox', { name: t.table.selectPage }).click();
    const bar = page.getByRole('region', { name: t.selection.label });
    await bar.getByRole('button', { name: t.bulk.addRole, exact: true }).click();
    const picker = page.getByRole('dialog', { name: t.bulk.role.pickTitle.addRole(2) });
    await picker.getByLabel(t.bulk.role.label, { exact: true }).selectOption({ label: 'viewer' });
    await screenshot(page, 'users-bulk-role-picker-1280');
    await picker.getByRole('button', { name: t.bulk.role.next, exact: true }).click();
    const check = page.getByRole('dialog', { name: t.bulk.role.title.addRole(2, 'viewer') });
    await check.getByText(t.bulk.role.affected.addRole(2, 'viewer')).waitFor();
    await screenshot(page, 'users-bulk-add-role-check-1280');
    await check.getByRole('button', { name: t.bulk.role.confirm.addRole(2, 'viewer'), exact: true }).click();
    await waitForToast(page, t.bulk.role.done.addRole(2, 'viewer'));
    await expect.poll(rolesOf).toEqual([['viewer'], ['viewer']]);
    await expect.poll(() => usersTable(page).getByRole('link', { name: 'viewer', exact: true }).count()).toBe(2);
    await screenshot(page, 'users-roles-column-1280');

    for (const theme of ['light', 'dark'] as const) {
      const phone = await signedInPage(browser, undefined, { width: 375, height: 800, theme });
      await phone.page.goto(`/users?q=${word}`);
      const cards = phone.page.getByRole('list', { name: t.table.label, exact: true });
      await cards.getByRole('link', { name: 'viewer', exact: true }).first().waitFor();
      const wide = await phone.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(wide, 'no sideways scrolling on a phone').toBe(false);
      await screenshot(phone.page, `users-roles-column-375-${theme}`);
      await phone.context.close();
    }

    // A badge opens the role's members; then the role goes again, through the other bulk action.
    const viewerId = (await apiList(page, `q=${word}`)).availableRoles.find((r) => r.name === 'viewer')?.id;
    await usersTable(page).getByRole('link', { name: 'viewer', exact: true }).first().click();
    await expect.poll(() => searchOf(page).getAll('filters[role_id][]')).toEqual([String(viewerId)]);
    await page.goto(`/users?q=${word}`);
    await usersTable(page).getByRole('link', { name: 'viewer', exact: true }).first().waitFor();
    await usersTable(page).getByRole('checkbox', { name: t.table.selectPage }).click();
    await bar.getByRole('button', { name: t.bulk.removeRole, exact: true }).click();
    const removal = page.getByRole('dialog', { name: t.bulk.role.pickTitle.removeRole(2) });
    await removal.getByLabel(t.bulk.role.label, { exact: true }).selectOption({ label: 'viewer' });
    await removal.getByRole('button', { name: t.bulk.role.next, exact: true }).click();
    const confirm = page.getByRole('dialog', { name: t.bulk.role.title.removeRole(2, 'viewer') });
    await confirm.getByRole('button', { name: t.bulk.role.confirm.removeRole(2, 'viewer'), exact: true }).click();
    await waitForToast(page, t.bulk.role.done.removeRole(2, 'viewer'));
    await expect.poll(rolesOf).toEqual([[], []]);
    await context.close();
  });
});
