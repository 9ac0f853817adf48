import type { RoleItem, RolesListResult } from '@app/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeToasts, createUserViaApi, en, originHeader, signedInPage, waitForToast } from './support/app';
import { roleEditorMessages } from '../src/i18n/role-editor-messages';
import { browserMissing, captureViews, launch, screenshot } from './support/browser';

const t = en.roles;
const r = roleEditorMessages;

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
      .getByRole('link', { name: en.nav.roles, exact: true })
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
    const members = page.getByRole('link', { name: r.show.members(manager?.users_count ?? 0), exact: true });
    expect(await members.getAttribute('href')).toBe(`/users?filters[role_id][]=${manager?.id}`);
    await context.close();
  });
});

const f = r.form;
const p = r.preview;
const label = (name: string) => en.permissions.names[name]?.label ?? name;
const box = (page: Page, name: string) => page.getByRole('checkbox', { name: label(name), exact: true });
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** `POST /api/roles` with the page's session (the set-up of a test, not what it tests). */
async function createRoleViaApi(page: Page, name: string, permissions: string[]): Promise<RoleItem> {
  const res = await page.request.post('/api/roles', { data: { name, permissions }, headers: originHeader() });
  if (!res.ok()) throw new Error(`POST /api/roles → ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { item: RoleItem }).item;
}

async function roleViaApi(page: Page, id: number): Promise<{ status: number; item?: RoleItem }> {
  const res = await page.request.get(`/api/roles/${id}?with[]=permissions&withCount[]=users`);
  return { status: res.status(), ...(res.ok() ? ((await res.json()) as { item: RoleItem }) : {}) };
}

/** What the role grants now, by name, sorted. */
const grantsOf = async (page: Page, id: number) =>
  ((await roleViaApi(page, id)).item?.permissions ?? []).map((permission) => permission.name).sort();

/** A phone must never scroll sideways (SPEC: lists on a phone; the matrix stacks). */
async function expectNoSideScroll(page: Page, where: string) {
  await page.setViewportSize({ width: 375, height: 900 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${where} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.skipIf(browserMissing())('the role editor', () => {
  it('lets an administrator create a role, edit it with a preview of its impact, and delete it with its members', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 1280, height: 900 });
    const name = `e2e-support-${stamp()}`;
    await page.goto('/roles');
    await page.getByRole('link', { name: r.newRole, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/roles/new');
    await page.getByRole('textbox', { name: f.name, exact: true }).fill(name);
    await page.getByRole('textbox', { name: f.description }).fill('Answers customers');
    await box(page, 'users.view').check();
    await box(page, 'users.export').check();
    await page.getByText(p.noMembers, { exact: true }).waitFor();
    await expectNoSideScroll(page, 'the new role form');
    await page.getByRole('button', { name: f.create, exact: true }).click();
    await page.waitForURL((url) => /^\/roles\/\d+$/.test(url.pathname));
    await waitForToast(page, f.created);
    const id = Number(new URL(page.url()).pathname.split('/')[2]);
    expect(await grantsOf(page, id)).toEqual(['users.export', 'users.view']);

    // A member, so that the preview has someone to reach.
    const member = await createUserViaApi(page, {
      name: `Member ${name}`,
      email: `member-${name}@example.com`,
      roles_ids: [id],
    });
    await page.goto(`/roles/${id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByRole('link', { name: r.show.edit, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/roles/${id}/edit`);
    await box(page, 'users.export').waitFor();
    await page.getByText(p.unchanged, { exact: true }).waitFor();
    await box(page, 'users.setActive').check();
    await box(page, 'users.export').uncheck();
    const sentence = p.sentence([p.gain(1, 'users.setActive'), p.lose(1, 'users.export')]);
    await page.getByText(sentence, { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByText(member.name).first().waitFor();
    await captureViews(page, 'role-edit-admin');
    await expectNoSideScroll(page, 'the role editor');
    await page.getByRole('button', { name: f.save, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/roles/${id}`);
    await waitForToast(page, f.saved);
    expect(await grantsOf(page, id)).toEqual(['users.setActive', 'users.view']);
    await page.getByRole('link', { name: r.show.members(1), exact: true }).waitFor();
    // The pictures show the page, not the notice over it.
    await closeToasts(page);
    await captureViews(page, 'role-show');
    await expectNoSideScroll(page, 'the role page');

    await page.getByRole('button', { name: r.show.delete, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: r.remove.title(name), exact: true });
    await dialog.getByText(r.remove.members(1, name), { exact: false }).waitFor();
    await dialog.getByRole('textbox', { name: r.remove.typeName(name), exact: true }).fill(name);
    await dialog.getByRole('button', { name: r.remove.confirm, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/roles');
    await waitForToast(page, r.remove.done(name));
    expect((await roleViaApi(page, id)).status).toBe(404);
    await context.close();
  });

  it('shows a manager with roles.update the permissions it lacks as locked, with why, and saves what it holds', async () => {
    const admin = await signedInPage(browser);
    const suffix = stamp();
    const editors = await createRoleViaApi(admin.page, `e2e-role-editors-${suffix}`, [
      'users.view',
      'users.update',
      'roles.view',
      'roles.update',
    ]);
    const target = await createRoleViaApi(admin.page, `e2e-helpdesk-${suffix}`, ['users.view']);
    const account = { email: `role-editor-${suffix}@example.com`, password: 'e2e-role-editor-password' };
    await createUserViaApi(admin.page, { name: 'Rhea Roles', ...account, roles_ids: [editors.id] });
    await admin.context.close();

    const { context, page } = await signedInPage(browser, account, { width: 1280, height: 900 });
    await page.goto(`/roles/${target.id}/edit`);
    const reason = 'You can grant or take away only permissions you hold yourself; you do not hold users.delete.';
    const locked = box(page, 'users.delete');
    await locked.waitFor();
    expect(await locked.getAttribute('aria-disabled')).toBe('true');
    const describedBy = (await locked.getAttribute('aria-describedby')) ?? '';
    const description = await page.evaluate(
      (ids) =>
        ids
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      describedBy,
    );
    expect(description).toContain(reason);
    // The reason shows as a tooltip on hover, and a press changes nothing.
    await locked.hover();
    await page.getByText(reason, { exact: true }).waitFor({ state: 'visible' });
    // Forced: Playwright waits for an aria-disabled box to become enabled, as a user cannot.
    await locked.click({ force: true });
    expect(await locked.isChecked()).toBe(false);
    expect(await box(page, 'users.update').getAttribute('aria-disabled')).toBeNull();
    await page.mouse.move(0, 0);

    await box(page, 'users.update').check();
    await page.getByText(p.sentence([p.gain(0, 'users.update')]), { exact: true }).waitFor({ timeout: 15_000 });
    await locked.focus();
    await captureViews(page, 'role-edit-manager');
    await expectNoSideScroll(page, 'the role editor of a manager');
    await page.getByRole('button', { name: f.save, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/roles/${target.id}`);
    await waitForToast(page, f.saved);
    expect(await grantsOf(page, target.id)).toEqual(['users.update', 'users.view']);
    await context.close();
  });

  it('counts the members a change reaches without naming them for an editor who may not see users', async () => {
    const admin = await signedInPage(browser);
    const suffix = stamp();
    const editors = await createRoleViaApi(admin.page, `e2e-blind-editors-${suffix}`, [
      'roles.view',
      'roles.update',
      'users.export',
    ]);
    const target = await createRoleViaApi(admin.page, `e2e-reached-${suffix}`, []);
    for (const n of [1, 2]) {
      await createUserViaApi(admin.page, {
        name: `Reached Person ${n}`,
        email: `reached-${n}-${suffix}@example.com`,
        password: 'e2e-reached-password',
        roles_ids: [target.id],
      });
    }
    const account = { email: `blind-editor-${suffix}@example.com`, password: 'e2e-blind-editor-password' };
    await createUserViaApi(admin.page, { name: 'Blair Blind', ...account, roles_ids: [editors.id] });
    await admin.context.close();

    const { context, page } = await signedInPage(browser, account, { width: 1280, height: 900 });
    await page.goto(`/roles/${target.id}/edit`);
    await box(page, 'users.export').check();
    await page.getByText(p.sentence([p.gain(2, 'users.export')]), { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByText(/counted, not named/).waitFor();
    expect(await page.getByText(/Reached Person/).count()).toBe(0);
    await screenshot(page, 'role-edit-without-users-view');
    await context.close();
  });
});
