import type { AuthSession, Permission } from '@app/contracts';
import { PERMISSIONS } from '@app/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  apiList,
  createUserViaApi,
  en,
  originHeader,
  signedInPage,
  signInThroughForm,
  waitForToast,
} from './support/app';
import { baseUrl, browserMissing, launch, newPage, screenshot } from './support/browser';
import { ADMIN, MANAGER } from './support/env';
import { withBearer } from './support/integrations';

const t = en.tokens;
const s = en.sessions;
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** Viewers (users.view, roles.view) of this file's own, so no other test's sessions or tokens mix in. */
const TIA = { name: 'Tia Tokens', email: 'tia.tokens@example.com', password: 'e2e-tia-password' };
const SID = { name: 'Sid Sessions', email: 'sid.sessions@example.com', password: 'e2e-sid-password' };

let browser: Browser;
let admin: { context: BrowserContext; page: Page };
const ids: Record<string, number> = {};
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  admin = await signedInPage(browser, ADMIN);
  const { availableRoles } = await apiList(admin.page);
  const viewer = availableRoles.find((role) => role.name === 'viewer');
  if (!viewer) throw new Error('no viewer role');
  ids.roles = viewer.id;
  for (const who of [TIA, SID]) {
    const found = (await apiList(admin.page, `q=${encodeURIComponent(who.email)}`)).rows[0];
    ids[who.email] = found?.id ?? (await createUserViaApi(admin.page, { ...who, roles_ids: [viewer.id] })).id;
  }
});
afterAll(async () => {
  await admin?.context.close();
  await browser?.close();
});

/** What the account holds, as `auth.me` says. */
async function heldBy(page: Page): Promise<Permission[]> {
  const me = (await (await page.request.get('/api/auth/me')).json()) as AuthSession;
  return PERMISSIONS.filter((permission) => me.can[permission]);
}

const label = (permission: Permission) => en.permissions.names[permission]?.label ?? permission;
const meStatus = async (context: BrowserContext) => (await context.request.get('/api/auth/me')).status();

describe.skipIf(browserMissing())('API tokens and sessions', () => {
  it('makes a token narrowed to the owner’s permissions, shows its secret once, and the token works until revoked', async () => {
    const { context, page } = await signedInPage(browser, TIA as Account);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.goto('/account/tokens');
    await page.getByText(t.empty.title, { exact: true }).waitFor();
    expect(await page.getByText(/Authorization: Bearer/).textContent()).toBe(t.empty.example(baseUrl()));

    await page.getByRole('button', { name: t.create, exact: true }).click();
    const form = page.getByRole('dialog', { name: t.form.title });
    await form.getByLabel(t.form.name, { exact: true }).fill('Laptop script');
    await form.getByLabel(t.form.expiry, { exact: true }).selectOption('30');
    await form.getByRole('switch', { name: t.form.narrow }).click();
    // Only what Tia holds is offered: a token never holds more than its owner.
    const held = await heldBy(page);
    const offered = await form.getByRole('group', { name: t.form.scopes }).locator('label').allTextContents();
    expect(offered).toEqual(held.map(label));
    await form.getByRole('checkbox', { name: label('users.view'), exact: true }).click();
    await screenshot(page, 'token-create-light-1280');
    await form.getByRole('button', { name: t.form.submit, exact: true }).click();

    const reveal = page.getByRole('dialog', { name: t.secret.title });
    const secret = await reveal.getByLabel(t.secret.label, { exact: true }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await reveal.getByRole('button', { name: t.secret.copy, exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshot(page, 'token-secret-light-1280');
    await reveal.getByRole('button', { name: t.secret.done, exact: true }).click();
    await reveal.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(secret);

    // The token acts as Tia, only within its scope.
    await withBearer(secret, async (api) => {
      expect((await api.get('/api/users?perPage=1')).status()).toBe(200);
      expect((await api.get(`/api/roles/${ids.roles}`)).status()).toBe(403);
    });
    await page.reload();
    const row = page.getByRole('listitem').filter({ hasText: 'Laptop script' });
    await row.getByText(t.list.fromIp('127.0.0.1'), { exact: true }).waitFor();
    await row.getByText(label('users.view'), { exact: true }).waitFor();

    await row.getByRole('button', { name: t.list.revokeNamed('Laptop script') }).click();
    const confirm = page.getByRole('dialog', { name: t.revoke.title('Laptop script') });
    await confirm.getByRole('button', { name: t.revoke.confirm, exact: true }).click();
    await waitForToast(page, t.revoke.done('Laptop script'));
    await row.waitFor({ state: 'detached' });
    await withBearer(secret, async (api) => expect((await api.get('/api/users?perPage=1')).status()).toBe(401));
    await context.close();
  });

  it('lists my sessions with this device marked, signs out the others, then this one', async () => {
    const other = await newPage(browser);
    await other.context.request.post('/api/auth/login', {
      data: { email: SID.email, password: SID.password },
      headers: { ...originHeader(), 'user-agent': FIREFOX_WINDOWS },
    });
    expect(await meStatus(other.context)).toBe(200);
    const { context, page } = await signedInPage(browser, SID as Account, { width: 375, theme: 'dark' });
    await page.goto('/account/sessions');

    const list = page.getByRole('list', { name: s.list.label });
    await list.getByRole('heading', { name: 'Firefox on Windows', exact: true }).waitFor();
    const first = list.getByRole('listitem').first();
    await first.getByText(s.list.thisDevice, { exact: true }).waitFor();
    expect(await list.getByText(s.list.thisDevice, { exact: true }).count()).toBe(1);
    await screenshot(page, 'sessions-dark-375');

    await page.getByRole('button', { name: s.others.button, exact: true }).click();
    const confirm = page.getByRole('dialog', { name: s.others.title });
    await confirm.getByRole('button', { name: s.others.confirm, exact: true }).click();
    await waitForToast(page, /other session/);
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await meStatus(other.context)).toBe(401);

    await first.getByRole('button', { name: `${s.list.signOut} ${s.list.signOutDevice('Chrome on Linux')}` }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await meStatus(context)).toBe(401);
    await other.context.close();
    await context.close();
  });

  it('lets an administrator end a user’s sessions, make and revoke a token for them, and read their sign-ins', async () => {
    // Through the login form, so the sign-in is recorded with the browser's user agent.
    const tia = await newPage(browser);
    await tia.page.goto('/login');
    await signInThroughForm(tia.page, TIA as Account);
    await tia.page.waitForURL((url) => url.pathname !== '/login');
    // And a refused sign-in, from elsewhere.
    const stranger = await newPage(browser);
    const refused = await stranger.context.request.post('/api/auth/login', {
      data: { email: TIA.email, password: 'not-the-password' },
      headers: originHeader(),
    });
    expect(refused.status()).toBe(401);
    await stranger.context.close();
    expect(await meStatus(tia.context)).toBe(200);
    const { page } = admin;
    await page.goto(`/users/${ids[TIA.email]}`);
    await page.getByRole('heading', { level: 1, name: TIA.name }).waitFor();

    const signIns = page.getByRole('region', { name: s.signIns.title });
    await signIns.getByText(s.signIns.failed, { exact: true }).first().waitFor();
    await signIns.getByText(s.signIns.succeeded, { exact: true }).first().waitFor();
    await signIns.getByText('Chrome on Linux').first().waitFor();

    const sessions = page.getByRole('region', { name: s.user.title });
    await sessions.getByRole('heading', { name: 'Chrome on Linux' }).first().waitFor();
    await sessions.getByRole('button', { name: s.user.endAll, exact: true }).click();
    const endAll = page.getByRole('dialog', { name: s.user.endAllTitle(TIA.name) });
    await endAll.getByRole('button', { name: s.user.endAllConfirm, exact: true }).click();
    await sessions.getByText(s.user.empty, { exact: true }).waitFor();
    expect(await meStatus(tia.context)).toBe(401);

    const tokens = page.getByRole('region', { name: t.user.title });
    await tokens.getByRole('button', { name: t.user.create, exact: true }).click();
    const form = page.getByRole('dialog', { name: t.form.titleFor(TIA.name) });
    await form.getByLabel(t.form.name, { exact: true }).fill('Issued by admin');
    await form.getByRole('button', { name: t.form.submit, exact: true }).click();
    const reveal = page.getByRole('dialog', { name: t.secret.title });
    const secret = await reveal.getByLabel(t.secret.label, { exact: true }).inputValue();
    await reveal.getByRole('button', { name: t.secret.done, exact: true }).click();
    const row = tokens.getByRole('listitem').filter({ hasText: 'Issued by admin' });
    await row.getByText(t.list.allOwnerPermissions, { exact: true }).waitFor();
    // A full-page capture of a scrolled page repeats the sticky header: from the top, nothing focused.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
    });
    await screenshot(page, 'user-security-light-1280');
    await withBearer(secret, async (api) => expect((await api.get('/api/users?perPage=1')).status()).toBe(200));

    await row.getByRole('button', { name: t.list.revokeNamed('Issued by admin') }).click();
    await page
      .getByRole('dialog', { name: t.revoke.title('Issued by admin') })
      .getByRole('button', { name: t.revoke.confirm, exact: true })
      .click();
    // While a dialog is open the page behind it is hidden from the role queries: wait for the outcome first.
    await waitForToast(page, t.revoke.done('Issued by admin'));
    await row.waitFor({ state: 'detached' });
    await withBearer(secret, async (api) => expect((await api.get('/api/users?perPage=1')).status()).toBe(401));
    await tia.context.close();
  });

  it('shows a manager why the administrator’s sessions are out of reach, with no button to end them', async () => {
    const { context, page } = await signedInPage(browser, MANAGER);
    const adminRow = (await apiList(page, `filters[email]=${encodeURIComponent(ADMIN.email)}`)).rows[0];
    if (!adminRow) throw new Error('the administrator is not listed');
    await page.goto(`/users/${adminRow.id}`);
    const sessions = page.getByRole('region', { name: s.user.title });
    await sessions.getByText(s.user.outrankedTitle, { exact: true }).waitFor();
    expect(await sessions.getByRole('button').count()).toBe(0);
    // A manager holds no tokens.manage: no API tokens section at all.
    expect(await page.getByRole('region', { name: t.user.title }).count()).toBe(0);
    await context.close();
  });
});
