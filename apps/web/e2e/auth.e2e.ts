import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, originHeader, signedInPage, signInThroughForm, usersTable, waitForRows } from './support/app';
import { browserMissing, launch, newPage } from './support/browser';
import { ADMIN } from './support/env';

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe.skipIf(browserMissing())('signing in', () => {
  it('signs the administrator in through the login page and opens the users list', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: en.auth.title }).waitFor();
    await signInThroughForm(page, ADMIN);
    await page.waitForURL((url) => url.pathname === '/users');
    await page.getByRole('heading', { level: 1, name: en.usersList.title, exact: true }).waitFor();
    await waitForRows(page);
    expect(await usersTable(page).locator('tbody tr').count()).toBe(10);
    await context.close();
  });

  it('shows the server’s own message when the password is wrong, and stays on the login page', async () => {
    const { context, page } = await newPage(browser);
    // What the server says to a wrong password (asked directly, with another unknown address).
    const probe = await context.request.post('/api/auth/login', {
      data: { email: 'nobody@example.com', password: 'not-the-password' },
      headers: originHeader(),
    });
    expect(probe.status()).toBe(401);
    const { detail } = (await probe.json()) as { detail: string };
    expect(detail).toBeTruthy();

    await page.goto('/login');
    await signInThroughForm(page, { email: ADMIN.email, password: 'definitely-wrong-password' });
    const alert = page.getByRole('alert').filter({ hasText: en.auth.failedTitle });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(detail);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByLabel(en.auth.password, { exact: true }).inputValue()).toBe('');
    await context.close();
  });

  it('sends a signed-out visitor to the login page and back to the page they asked for', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/users?page=3&perPage=25');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/users?page=3&perPage=25');
    await signInThroughForm(page, ADMIN);
    await page.waitForURL((url) => url.pathname === '/users');
    expect(pathOf(page.url())).toBe('/users?page=3&perPage=25');
    await waitForRows(page);
    await context.close();
  });

  it('returns to the login page with the way back when a call gets 401 after the session ended', async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto('/users');
    await waitForRows(page);
    // The session ends server side (as on expiry or revocation); the page does not know yet.
    const out = await page.request.post('/api/auth/logout', { headers: originHeader() });
    expect(out.status()).toBe(204);

    await page.getByRole('button', { name: en.usersList.pagination.next, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('next')).toBe('/users?page=2');
    await page.getByRole('heading', { level: 1, name: en.auth.title }).waitFor();

    await signInThroughForm(page, ADMIN);
    await page.waitForURL((url) => url.pathname === '/users');
    expect(pathOf(page.url())).toBe('/users?page=2');
    await page.getByText(/^Showing 11–20 of /).waitFor();
    await context.close();
  });
});
