import type { RolesListResult } from '@app/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage } from './support/app';
import { browserMissing, captureViews, launch } from './support/browser';

const t = en.roles;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** `GET /api/roles?<query>` with the page's session: what the list should show. */
async function apiRoles(page: Page, query = ''): Promise<RolesListResult> {
  const res = await page.request.get(`/api/roles${query ? `?${query}` : ''}`);
  if (!res.ok()) throw new Error(`GET /api/roles?${query} → ${res.status()} ${await res.text()}`);
  return (await res.json()) as RolesListResult;
}

const rolesTable = (page: Page) => page.getByRole('table', { name: t.table.label, exact: true });
const shownNames = (page: Page) =>
  rolesTable(page)
    .locator('tbody tr a[href^="/roles/"]')
    .evaluateAll((links) => links.map((link) => link.textContent ?? ''));

describe.skipIf(browserMissing())('the roles list', () => {
  it('is reached from the navigation, counts each role’s members, searches, and opens a role', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 1280 });
    await page.goto('/status');
    await page
      .getByRole('navigation', { name: en.nav.label, exact: true })
      .getByRole('link', { name: t.nav, exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === '/roles');
    await page.getByRole('heading', { level: 1, name: t.title }).waitFor();

    const { rows } = await apiRoles(page);
    for (const name of ['admin', 'manager', 'viewer']) {
      const role = rows.find((row) => row.name === name);
      expect(role, `the seed has the role ${name}`).toBeDefined();
      if (!role) continue;
      await rolesTable(page).getByRole('link', { name, exact: true }).waitFor();
      const members = rolesTable(page).getByRole('link', { name: t.members(role.users_count, name), exact: true });
      expect(await members.textContent()).toBe(t.count(role.users_count));
      expect(await members.getAttribute('href')).toBe(`/users?filters[role_id][]=${role.id}`);
    }
    await captureViews(page, 'roles-list');

    await page.getByRole('searchbox', { name: t.search.label, exact: true }).fill('man');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('man');
    const matching = (await apiRoles(page, 'q=man')).rows.map((row) => row.name);
    expect(matching).toContain('manager');
    await expect.poll(() => shownNames(page), { timeout: 15_000 }).toEqual(matching);

    await rolesTable(page).getByRole('link', { name: 'manager', exact: true }).click();
    await page.waitForURL((url) => /^\/roles\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { level: 1, name: 'manager' }).waitFor();
    const manager = rows.find((row) => row.name === 'manager');
    expect(await page.getByRole('link', { name: t.membersLink, exact: true }).getAttribute('href')).toBe(
      `/users?filters[role_id][]=${manager?.id}`,
    );
    await context.close();
  });
});
