import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage, waitForToast } from './support/app';
import { browserMissing, launch, screenshot, seriousA11yViolations } from './support/browser';
import { ADMIN } from './support/env';
import { type MailBox, type MailingApi, startMailBox, startMailingApi } from './support/mail';

// Invitations and password reset end to end: the page that sends a link, the real SMTP server that
// receives it, the link opened in a browser that was never signed in, and what the person can do then.

let browser: Browser;
let mailBox: MailBox;
let api: MailingApi;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  mailBox = await startMailBox();
  api = await startMailingApi(mailBox);
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await mailBox?.close();
});

type View = { width?: number; theme?: 'light' | 'dark' };

/** A browser context on the mailing API: no cookies, at a viewport and theme. */
async function visit(view: View = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: api.baseUrl,
    viewport: { width: view.width ?? 1280, height: 800 },
    colorScheme: view.theme ?? 'light',
  });
  if (view.theme) await context.addInitScript((theme) => window.localStorage.setItem('theme', theme), view.theme);
  return { context, page: await context.newPage() };
}

const post = (context: BrowserContext, path: string, data: object) =>
  context.request.post(path, { data, headers: { origin: api.baseUrl } });

async function asAdmin(view: View = {}) {
  const opened = await visit(view);
  const res = await post(opened.context, '/api/auth/login', ADMIN);
  if (!res.ok()) throw new Error(`sign-in as the administrator failed: ${res.status()}`);
  return opened;
}

let serial = 0;
/** A user who has never signed in, created by the administrator with a password nobody will use. */
async function newPerson(context: BrowserContext, name: string) {
  serial += 1;
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}.${serial}@example.com`;
  const password = 'set-by-the-administrator-1';
  const res = await post(context, '/api/users', { name, email, password, password_confirmation: password });
  if (!res.ok()) throw new Error(`POST /api/users → ${res.status()} ${await res.text()}`);
  const { item } = (await res.json()) as { item: { id: number } };
  return { id: item.id, name, email };
}

async function choosePassword(page: Page, password: string, submit: string) {
  await page.getByLabel(en.linkPassword.password, { exact: true }).fill(password);
  await page.getByLabel(en.linkPassword.confirmation, { exact: true }).fill(password);
  await page.getByRole('button', { name: submit, exact: true }).click();
}

async function expectAxeClean(page: Page, where: string) {
  const violations = await seriousA11yViolations(page);
  expect(
    violations,
    `${where}:\n${violations.map((v) => `${v.id}: ${v.help}\n${v.examples.join('\n')}`).join('\n')}`,
  ).toEqual([]);
}

const a = en.userAccess;

describe.skipIf(browserMissing())('invitations and password reset, with real mail', () => {
  it('invites a user from their page; the mailed link sets a password and signs them in', async () => {
    const admin = await asAdmin();
    const person = await newPerson(admin.context, 'Ivy Invited');
    await admin.page.goto(`/users/${person.id}`);
    const card = admin.page.getByRole('region', { name: a.title, exact: true });
    await card.getByText(a.neverInvited, { exact: true }).waitFor();
    await card.getByRole('button', { name: a.invite, exact: true }).click();
    const confirm = admin.page.getByRole('dialog', { name: a.inviteTitle(person.name) });
    await confirm.getByRole('button', { name: a.invite, exact: true }).click();
    await waitForToast(admin.page, a.invited(person.name));
    await card.getByText(a.states.pending, { exact: true }).waitFor();

    const link = await mailBox.linkTo(person.email, 'invite', api.baseUrl);
    const invitee = await visit();
    const response = await invitee.page.goto(link);
    // Nothing on the page is fetched from elsewhere, and no address leaves with a Referer.
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await invitee.page.getByRole('heading', { level: 1, name: en.linkPassword.inviteTitle }).waitFor();
    await choosePassword(invitee.page, 'ivy-chosen-password-1', en.linkPassword.inviteSubmit);

    await invitee.page.waitForURL((url) => url.pathname === '/account');
    const me = await invitee.context.request.get('/api/auth/me');
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(person.email);

    // The link was used: opened again, it shows its page and changes nothing.
    const again = await visit();
    await again.page.goto(link);
    await choosePassword(again.page, 'another-password-2', en.linkPassword.inviteSubmit);
    await again.page.getByRole('heading', { level: 1, name: en.spentLink.title }).waitFor();
    await Promise.all([admin.context.close(), invitee.context.close(), again.context.close()]);
  });

  it('resets a forgotten password through the mailed link, then signs in with the new one', async () => {
    const admin = await asAdmin();
    const person = await newPerson(admin.context, 'Rex Reset');
    await admin.context.close();

    const { context, page } = await visit();
    await page.goto('/login');
    await page.getByRole('link', { name: en.auth.forgotPassword, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: en.forgot.title }).waitFor();
    await page.getByLabel(en.forgot.email, { exact: true }).fill(person.email);
    await page.getByRole('button', { name: en.forgot.submit, exact: true }).click();
    await page.getByText(en.forgot.sent(person.email), { exact: true }).waitFor();

    const link = await mailBox.linkTo(person.email, 'reset-password', api.baseUrl);
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: en.linkPassword.resetTitle }).waitFor();
    await choosePassword(page, 'rex-new-password-1', en.linkPassword.resetSubmit);
    await page.waitForURL((url) => url.pathname === '/login');
    await waitForToast(page, en.linkPassword.resetDone);

    await page.getByLabel(en.auth.email, { exact: true }).fill(person.email);
    await page.getByLabel(en.auth.password, { exact: true }).fill('rex-new-password-1');
    await page.getByRole('button', { name: en.auth.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await context.close();
  });

  it('answers the same for an address nobody has, and mails nothing', async () => {
    const { context, page } = await visit();
    const before = mailBox.received.length;
    await page.goto('/forgot-password');
    await page.getByLabel(en.forgot.email, { exact: true }).fill('nobody.at.all@example.com');
    await page.getByRole('button', { name: en.forgot.submit, exact: true }).click();
    await page.getByText(en.forgot.sent('nobody.at.all@example.com'), { exact: true }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailBox.received.length).toBe(before);
    await context.close();
  });
});

const VIEWS = [375, 1280].flatMap((width) => (['light', 'dark'] as const).map((theme) => ({ width, theme })));

describe.skipIf(browserMissing())('the new pages: screenshots and axe', () => {
  it.each(VIEWS)('forgot password, a link to choose a password, a spent link — $width px, $theme', async (view) => {
    const { context, page } = await visit(view);
    const name = `${view.width}-${view.theme}`;

    await page.goto('/forgot-password');
    await page.getByRole('heading', { level: 1, name: en.forgot.title }).waitFor();
    await expectAxeClean(page, `forgot password ${name}`);
    await screenshot(page, `links-forgot-${name}`);
    await page.getByLabel(en.forgot.email, { exact: true }).fill('someone@example.com');
    await page.getByRole('button', { name: en.forgot.submit, exact: true }).click();
    await page.getByText(en.forgot.sent('someone@example.com'), { exact: true }).waitFor();
    await expectAxeClean(page, `forgot password sent ${name}`);
    await screenshot(page, `links-forgot-sent-${name}`);

    await page.goto('/invite/not-a-real-token');
    await page.getByRole('heading', { level: 1, name: en.linkPassword.inviteTitle }).waitFor();
    // The policy's refusals by the fields, as a person sees them.
    await page.getByLabel(en.linkPassword.password, { exact: true }).fill('short');
    await page.getByRole('button', { name: en.linkPassword.inviteSubmit, exact: true }).click();
    await page.getByText('The password must be at least 8 characters long.').waitFor();
    await expectAxeClean(page, `invitation ${name}`);
    await screenshot(page, `links-invite-${name}`);

    await page.goto('/reset-password/not-a-real-token');
    await page.getByRole('heading', { level: 1, name: en.linkPassword.resetTitle }).waitFor();
    await expectAxeClean(page, `reset ${name}`);
    await screenshot(page, `links-reset-${name}`);
    await choosePassword(page, 'a-long-enough-password', en.linkPassword.resetSubmit);
    await page.getByRole('heading', { level: 1, name: en.spentLink.title }).waitFor();
    await expectAxeClean(page, `spent link ${name}`);
    await screenshot(page, `links-spent-${name}`);
    await context.close();
  });

  it.each(VIEWS)('the user page’s sign-in access, and the link without mail — $width px, $theme', async (view) => {
    const name = `${view.width}-${view.theme}`;
    // The run's shared server has no SMTP_URL: a reset link is answered, for the administrator to copy.
    const { context, page } = await signedInPage(browser, ADMIN, view);
    const list = await page.request.get('/api/users?filters[is_active]=active&perPage=5&sort=id');
    const { rows } = (await list.json()) as { rows: Array<{ id: number; name: string; email: string }> };
    const user = rows.find((row) => row.email !== ADMIN.email);
    if (!user) throw new Error('no active user to send a link to');
    await page.goto(`/users/${user.id}`);
    const card = page.getByRole('region', { name: a.title, exact: true });
    await card.scrollIntoViewIfNeeded();
    await expectAxeClean(page, `user page ${name}`);
    await screenshot(page, `links-user-access-${name}`);

    await card.getByRole('button', { name: a.sendReset, exact: true }).click();
    await page
      .getByRole('dialog', { name: a.resetTitle(user.name) })
      .getByRole('button', { name: a.sendReset, exact: true })
      .click();
    const shown = page.getByRole('dialog', { name: a.link.resetTitle(user.name) });
    const url = await shown.getByLabel(a.link.label, { exact: true }).inputValue();
    expect(url).toMatch(/\/reset-password\/[A-Za-z0-9_-]+$/);
    await expectAxeClean(page, `link dialog ${name}`);
    await screenshot(page, `links-user-access-url-${name}`);
    await shown.getByRole('button', { name: a.link.done, exact: true }).click();
    await context.close();
  });
});
