import { createHmac } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '../src/i18n/account-messages';
import { providersMessages } from '../src/i18n/providers-messages';
import { signInMessages } from '../src/i18n/sign-in-messages';
import { en, originHeader, signedInPage, signInThroughForm } from './support/app';
import { browserMissing, captureViews, launch, newPage } from './support/browser';

// Two-factor sign-in end to end: enrolment on /account/two-factor with the code computed here from
// the key the page shows (RFC 6238), signing in again with password and code, and a role that
// requires a second factor holding its member at enrolment. Screenshots and axe on the new pages.

const tf = accountMessages.twoFactor;
const step = signInMessages.codeStep;

/** RFC 6238 as the product uses it (SHA-1, 6 digits, 30 s) for the time step `counter`. */
function totp(base32: string, counter: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac('sha1', key).update(message).digest();
  const offset = (hmac[hmac.length - 1] ?? 0) & 0xf;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
const timeStep = () => Math.floor(Date.now() / 30_000);

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

let serial = 0;
/** A member created by the administrator, with a password, in `roles`. */
async function newMember(admin: BrowserContext, name: string, roles: number[] = []) {
  serial += 1;
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}.${serial}@example.com`;
  const password = 'a-member-password-1';
  const res = await admin.request.post('/api/users', {
    data: { name, email, password, password_confirmation: password, roles_ids: roles },
    headers: originHeader(),
  });
  if (!res.ok()) throw new Error(`POST /api/users → ${res.status()} ${await res.text()}`);
  return { email, password };
}

async function openLogin(page: Page) {
  await page.goto('/login');
  await page.getByLabel(en.auth.email, { exact: true }).waitFor();
}

describe.skipIf(browserMissing())('two-factor sign-in', () => {
  it('enrols on /account/two-factor, then signs in with password and a code', async () => {
    const admin = await signedInPage(browser);
    const member = await newMember(admin.context, 'Tove Twofactor');
    const { context, page } = await newPage(browser);
    await openLogin(page);
    await signInThroughForm(page, member);
    await page.waitForURL('**/account');

    await page.getByRole('link', { name: en.userMenu.twoFactor, exact: true }).click();
    await page.getByRole('button', { name: tf.start, exact: true }).click();
    await page.getByRole('img', { name: tf.qrLabel }).waitFor();
    const secret = await page.getByLabel(tf.manualLabel, { exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await captureViews(page, 'account-two-factor-enrol');

    const enrolledAt = timeStep();
    await page.getByLabel(tf.code, { exact: true }).fill(totp(secret, enrolledAt));
    await page.getByRole('button', { name: tf.confirm, exact: true }).click();
    const codes = page.getByRole('list', { name: tf.recoveryListLabel });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    await captureViews(page, 'account-two-factor-recovery-codes');
    await page.getByRole('button', { name: tf.done, exact: true }).click();
    await page.getByRole('heading', { name: tf.onTitle }).waitFor();

    await context.request.post('/api/auth/logout', { headers: originHeader() });
    await openLogin(page);
    await signInThroughForm(page, member);
    const code = page.getByLabel(step.code, { exact: true });
    await code.waitFor();
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await captureViews(page, 'login-two-factor-step');

    // A code is taken once per time step: the one that confirmed the enrolment would be refused.
    while (timeStep() <= enrolledAt) await page.waitForTimeout(1_000);
    await code.fill(totp(secret, timeStep()));
    await page.getByRole('button', { name: step.submit, exact: true }).click();
    await page.waitForURL('**/account');
    const me = await context.request.get('/api/auth/me');
    expect(((await me.json()) as { two_factor: unknown }).two_factor).toEqual({ enrolled: true, required: false });
    await context.close();
    await admin.context.close();
  }, 150_000);

  it('holds a member of a role that requires a second factor at enrolment, whatever page they open', async () => {
    const admin = await signedInPage(browser);
    const role = await admin.context.request.post('/api/roles', {
      data: { name: `needs-2fa-${Date.now()}`, permissions: ['users.view'], require_two_factor: true },
      headers: originHeader(),
    });
    if (!role.ok()) throw new Error(`POST /api/roles → ${role.status()} ${await role.text()}`);
    const { item } = (await role.json()) as { item: { id: number } };
    const member = await newMember(admin.context, 'Hal Held', [item.id]);

    const { context, page } = await newPage(browser);
    await openLogin(page);
    await signInThroughForm(page, member);
    await page.waitForURL('**/account/two-factor');
    await page.getByText(tf.heldTitle).waitFor();
    await page.goto('/users');
    await page.waitForURL('**/account/two-factor');
    // The page is drawn once the account's state has loaded: wait for it rather than look at once
    // (under load the check ran before the first paint).
    await page.getByRole('button', { name: tf.start, exact: true }).waitFor();
    await captureViews(page, 'account-two-factor-held');
    await context.close();
    await admin.context.close();
  });

  it('shows the account page and the providers page in both themes and widths', async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto('/account');
    await page.getByLabel(accountMessages.password.current, { exact: true }).waitFor();
    await captureViews(page, 'account-self-service');
    await page.goto('/settings/sign-in');
    await page.getByRole('heading', { name: providersMessages.providers.title, exact: true }).waitFor();
    await captureViews(page, 'settings-sign-in');
    await page.goto('/settings/sign-in/new');
    await page.getByLabel(providersMessages.providerForm.issuer, { exact: true }).waitFor();
    await captureViews(page, 'settings-sign-in-new', 1200);
    await context.close();
  });
});
