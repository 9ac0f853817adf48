import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, originHeader, shownIds, signedInPage, usersTable, waitForRows } from './support/app';
import { browserMissing, captureViews, launch } from './support/browser';

// The users list and custom attributes: an attribute shown as a column (from the column menu),
// filtered by (the filter form, a chip, the URL), sorted by (its header), and the bulk "Set
// attribute" dialog. Screenshots at 1280 and 375 px, light and dark, each checked by axe.

const t = en.usersList;
const a = t.attributes;

let browser: Browser;
// Keys and names of this run's own (the server is shared by every browser test file); the
// attributes are removed at the end, so no other file's filter form shows them.
const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.replace(/[^a-z0-9]/g, '');
const TEAM = `team_${suffix}`;
const STARTED = `started_${suffix}`;
const stamp = `attrlist${suffix}`;

beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});
afterAll(async () => {
  if (!browser) return;
  const { context, page } = await signedInPage(browser);
  for (const key of [TEAM, STARTED]) {
    await page.request.delete(`/api/attributes/${key}`, { headers: originHeader() }).catch(() => undefined);
  }
  await context.close();
  await browser.close();
});

async function declare(page: Page, body: Record<string, unknown>) {
  const res = await page.request.post('/api/attributes', { data: body, headers: originHeader() });
  if (!res.ok()) throw new Error(`POST /api/attributes → ${res.status()} ${await res.text()}`);
}

/** A user created with attribute values, through the API. */
async function createWith(page: Page, name: string, email: string, attributes: Record<string, unknown>) {
  const password = 'e2e-created-password';
  const res = await page.request.post('/api/users', {
    data: { name, email, roles_ids: [], is_active: true, password, password_confirmation: password, attributes },
    headers: originHeader(),
  });
  if (!res.ok()) throw new Error(`POST /api/users → ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { item: { id: number } }).item.id;
}

/** Before a picture: nothing focused, the top of the page. */
async function settle(page: Page) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

describe.skipIf(browserMissing())('the users list and custom attributes in the browser', () => {
  it('shows an attribute column, filters and sorts by it, and offers the bulk "Set attribute"', async () => {
    const { context, page } = await signedInPage(browser);
    await declare(page, { key: TEAM, label: 'Team', type: 'enum', values: ['Sales', 'Support'] });
    await declare(page, { key: STARTED, label: 'Start date', type: 'date' });
    const people = [
      { name: `Ines ${stamp}`, team: 'Sales', started: '2025-03-01' },
      { name: `Omar ${stamp}`, team: 'Support', started: '2024-07-15' },
      { name: `Lena ${stamp}`, team: 'Sales', started: '2026-01-10' },
    ];
    const ids: number[] = [];
    for (const [i, person] of people.entries()) {
      const attributes = { [TEAM]: person.team, [STARTED]: person.started };
      ids.push(await createWith(page, person.name, `${stamp}.${i}@example.com`, attributes));
    }
    const [ines, omar, lena] = ids as [number, number, number];

    await page.goto(`/users?q=${stamp}`);
    await waitForRows(page);
    const table = usersTable(page);
    // Off until shown, from the column menu.
    expect(await table.getByRole('columnheader', { name: 'Team' }).count()).toBe(0);
    await page.getByRole('button', { name: t.view.columns, exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Team', exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Start date', exact: true }).click();
    await page.keyboard.press('Escape');
    await table.getByRole('columnheader', { name: 'Start date' }).waitFor();
    await table.getByRole('cell', { name: 'Jan 10, 2026', exact: true }).waitFor();

    // Filtered by the form: the chip says it, the URL keeps it.
    await page.getByRole('button', { name: t.filters.button }).click();
    await page.getByRole('group', { name: 'Team' }).getByRole('checkbox', { name: 'Sales', exact: true }).click();
    await page.getByRole('button', { name: t.filters.apply, exact: true }).click();
    await page.waitForURL((url) => decodeURIComponent(url.search).includes(`filters[attributes][${TEAM}][]=Sales`));
    const chips = page.getByRole('list', { name: t.filters.chipsLabel });
    await chips.getByText('Sales', { exact: true }).waitFor();
    // Polled until the filtered page has replaced the unfiltered one (which holds Ines and Lena too).
    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    await expect.poll(async () => sorted(await shownIds(page))).toEqual(sorted([ines, lena]));
    expect(await shownIds(page)).not.toContain(omar);

    // Sorted from the header, oldest start first.
    await table.getByRole('button', { name: 'Start date', exact: true }).click();
    await page.waitForURL((url) => url.search.includes(`sort=attributes.${STARTED}`));
    await expect.poll(() => shownIds(page)).toEqual([ines, lena]);
    await settle(page);
    await captureViews(page, 'users-attributes-list');

    // The filter form, with the attributes' filters after the users' own.
    await page.getByRole('button', { name: t.filters.button }).click();
    await page.getByLabel(a.filters.from('Start date'), { exact: true }).fill('2025-01-01');
    await captureViews(page, 'users-attributes-filters', 1400);
    await page.getByRole('button', { name: t.filters.apply, exact: true }).click();
    await chips.getByText(/^from /).waitFor();

    // The bulk "Set attribute" dialog.
    await table.getByRole('checkbox', { name: t.table.selectPage }).click();
    const bar = page.getByRole('region', { name: t.selection.label });
    await bar.getByRole('button', { name: a.bulk.action }).click();
    const picker = page.getByRole('dialog', { name: a.bulk.pickTitle(2) });
    await picker.getByLabel(a.bulk.attribute, { exact: true }).selectOption({ label: 'Team' });
    await picker.getByLabel(a.bulk.value, { exact: true }).selectOption('Support');
    // Tall enough for the whole list on a phone: the dialog's overlay then covers the full-page picture.
    await captureViews(page, 'users-set-attribute', 1600);
    await picker.getByRole('button', { name: a.bulk.next, exact: true }).click();
    const check = page.getByRole('dialog', { name: a.bulk.title(2, 'Team') });
    await check.getByText(a.bulk.affected(2, 'Team'), { exact: true }).waitFor();
    await check.getByRole('button', { name: a.bulk.confirm(2, 'Team'), exact: true }).click();
    await page
      .locator('[data-sonner-toast]')
      .filter({ hasText: a.bulk.done(2, 'Team') })
      .first()
      .waitFor();
    const shown = (await (await page.request.get(`/api/users/${lena}`)).json()) as {
      item: { attributes: Record<string, unknown> };
    };
    expect(shown.item.attributes[TEAM]).toBe('Support');
    await context.close();
    // Several pages in four views each, a picture and axe per view: about a minute beside CI's other suites.
  }, 120_000);
});
