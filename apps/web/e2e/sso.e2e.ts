import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providersMessages } from '../src/i18n/providers-messages';
import { signInMessages } from '../src/i18n/sign-in-messages';
import { createUserViaApi, en, originHeader, signedInPage, waitForToast } from './support/app';
import { baseUrl, browserMissing, captureViews, launch, newPage, screenshot } from './support/browser';
import { type IdentityProvider, startIdentityProvider } from '../../api/test/support/oidc-provider-pages';

// Single sign-on end to end, in Chromium, against the real API and a real OpenID provider: the
// administrator adds the provider on /settings/sign-in, a person signs in with its button through
// the provider's own login and consent pages, and people the provider may not sign in here come
// back to the sign-in page with the product's words for why, and no session.

const p = providersMessages;
const sso = signInMessages.sso;
const NAME = 'Staff Identity';
const DOMAIN = 'example.com';

let browser: Browser;
let provider: IdentityProvider;
let admin: { context: BrowserContext; page: Page };
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  provider = await startIdentityProvider(baseUrl());
  admin = await signedInPage(browser);
});
afterAll(async () => {
  // The run's server is shared: later files' sign-in page should not show a button to a provider gone.
  if (admin) {
    const res = await admin.context.request.get('/api/auth/providers');
    const { rows } = (await res.json()) as { rows: Array<{ id: number; name: string }> };
    for (const row of rows.filter((r) => r.name === NAME)) {
      const gone = await admin.context.request.delete(`/api/auth/providers/${row.id}`, { headers: originHeader() });
      if (!gone.ok()) throw new Error(`DELETE /api/auth/providers/${row.id} → ${gone.status()} ${await gone.text()}`);
    }
    await admin.context.close();
  }
  await provider?.close();
  await browser?.close();
});

let serial = 0;
/** A person here (an account made by the administrator) whom the provider knows by `login`. */
async function person(first: string, options: { domain?: string; active?: boolean } = {}) {
  serial += 1;
  const login = `${first.toLowerCase()}-${Date.now()}-${serial}`;
  const email = `${login}@${options.domain ?? DOMAIN}`;
  const name = `${first} Single`;
  await createUserViaApi(admin.page, { name, email, is_active: options.active ?? true });
  provider.people.set(login, { email, email_verified: true });
  return { login, email, name };
}

/** A signed-out tab. The provider's pages import a web font; with no internet it is refused at once. */
async function signedOutPage() {
  const view = await newPage(browser);
  await view.context.route(/^https:\/\/fonts\.googleapis\.com\//, (route) => route.abort());
  return view;
}

const atProvider = (url: URL) => url.origin === provider.issuer;

/**
 * From the sign-in page: the provider's button, then its login page and its consent page (a
 * person's first sign-in with this client), filled in as a person would; resolves back at the product.
 * `picture` keeps a screenshot of the provider's two pages (its own: axe does not judge them).
 */
async function signInWithProvider(page: Page, login: string, options: { picture?: boolean } = {}): Promise<void> {
  await page.goto('/login');
  await page.getByRole('link', { name: sso.signInWith(NAME), exact: true }).click();
  await page.waitForURL((url) => atProvider(url) && url.pathname.startsWith('/interaction/'));
  await page.getByRole('heading', { name: 'Sign-in', exact: true }).waitFor();
  if (options.picture) await screenshot(page, 'sso-provider-login');
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('the-provider-takes-any-password');
  await page.getByRole('button', { name: 'Sign-in', exact: true }).click();
  await page.getByRole('heading', { name: 'Authorize', exact: true }).waitFor();
  // It asks for the e-mail scope: what the product matches accounts on.
  await page
    .getByRole('listitem')
    .filter({ hasText: /^email$/ })
    .waitFor();
  if (options.picture) await screenshot(page, 'sso-provider-consent');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.waitForURL((url) => url.origin === baseUrl() && !url.pathname.startsWith('/api/'));
}

/** No session: `/auth/me` answers 401 and a protected page sends the tab to the sign-in page. */
async function expectSignedOut(page: Page): Promise<void> {
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  await page.goto('/users');
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('heading', { level: 1, name: en.auth.title, exact: true }).waitFor();
}

describe.skipIf(browserMissing())('single sign-on with a real OpenID provider', () => {
  it('lets the administrator add the provider on /settings/sign-in, and never shows its secret back', async () => {
    const { page } = admin;
    await page.goto('/settings/sign-in');
    await page.getByRole('heading', { level: 1, name: p.providers.title, exact: true }).waitFor();
    await page.getByRole('link', { name: p.providers.add, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: p.providers.newTitle, exact: true }).waitFor();
    await page.getByLabel(p.providerForm.name, { exact: true }).fill(NAME);
    await page.getByLabel(p.providerForm.issuer, { exact: true }).fill(provider.issuer);
    await page.getByLabel(p.providerForm.clientId, { exact: true }).fill(provider.clientId);
    await page.getByLabel(p.providerForm.clientSecret, { exact: true }).fill(provider.clientSecret);
    await page.getByLabel(p.providerForm.domains, { exact: true }).fill(DOMAIN);
    expect(await page.getByRole('switch', { name: p.providerForm.createUsers }).isChecked()).toBe(false);
    await page.getByRole('button', { name: p.providers.save, exact: true }).click();

    // Saved (the issuer's discovery document was read): back on the list, which shows it.
    await page.waitForURL((url) => url.pathname === '/settings/sign-in');
    await waitForToast(page, p.providers.saved(NAME));
    // Read again, without the toast over the pictures.
    await page.reload();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: NAME, exact: true }) });
    await card.waitFor();
    await card.getByText(provider.issuer, { exact: true }).waitFor();
    await card.getByText(p.providers.domains([DOMAIN]), { exact: true }).waitFor();
    await card.getByText(p.providers.matchesAccounts, { exact: true }).waitFor();
    expect(await page.content()).not.toContain(provider.clientSecret);
    await captureViews(page, 'settings-sign-in-provider');

    // Its page says a secret is stored and shows no field holding it; the API never answers it.
    await card.getByRole('link', { name: `${p.providers.edit} ${NAME}`, exact: true }).click();
    await page.getByText(p.providerForm.clientSecretSet, { exact: true }).waitFor();
    expect(await page.getByLabel(p.providerForm.clientSecret, { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(provider.clientSecret);
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    const shown = await admin.context.request.get(`/api/auth/providers/${id}`);
    const text = await shown.text();
    expect(text).not.toContain(provider.clientSecret);
    expect((JSON.parse(text) as { item: { client_secret_set: boolean } }).item.client_secret_set).toBe(true);
  });

  it('signs a person in through the provider’s own login page and back into the product', async () => {
    const who = await person('Sigrid');
    const { context, page } = await signedOutPage();
    await page.goto('/login');
    await page.getByRole('link', { name: sso.signInWith(NAME), exact: true }).waitFor();
    await captureViews(page, 'login-sso');

    await signInWithProvider(page, who.login, { picture: true });
    // Signed in as the account holding the provider's e-mail: their name in the header.
    await page.getByRole('button', { name: who.name }).waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/login');
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(who.email);
    await context.close();
  });

  it('sends someone from a domain the provider may not sign in back to the sign-in page, saying why', async () => {
    const who = await person('Olaf', { domain: 'elsewhere.example.org' });
    const { context, page } = await signedOutPage();
    await signInWithProvider(page, who.login);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'sso_domain');
    const alert = page.getByRole('alert').filter({ hasText: sso.failedTitle });
    await alert.getByText(sso.errors.sso_domain ?? '', { exact: true }).waitFor();
    // The buttons stay, to try again or sign in with a password.
    await page.getByRole('link', { name: sso.signInWith(NAME), exact: true }).waitFor();
    await captureViews(page, 'login-sso-error');
    await expectSignedOut(page);
    await context.close();
  });

  it('refuses an inactive account the provider vouches for, with no session', async () => {
    const who = await person('Ingrid', { active: false });
    const { context, page } = await signedOutPage();
    await signInWithProvider(page, who.login);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'sso_inactive');
    await page
      .getByRole('alert')
      .getByText(sso.errors.sso_inactive ?? '', { exact: true })
      .waitFor();
    await expectSignedOut(page);
    await context.close();
  });
});
