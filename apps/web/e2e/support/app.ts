import type { UserRow, UsersListResult } from '@app/contracts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { en } from '../../src/i18n/en';
import { baseUrl, newPage, type ViewOptions } from './browser';
import { ADMIN } from './env';

export { en };

/** A catalogue entry as text: a plain string, or a function given the values it takes. */
// biome-ignore lint/suspicious/noExplicitAny: catalogue entries take various arguments
export function say<A extends any[]>(entry: string | ((...args: A) => string), ...args: A): string {
  return typeof entry === 'function' ? entry(...args) : entry;
}

export type Account = { readonly email: string; readonly password: string };

/** State-changing API calls must look same-origin (SPEC: cross-site refusal). */
export const originHeader = () => ({ origin: baseUrl() });

/** Signs in through the API on the context's cookie jar: for tests that are not about the login page. */
export async function signInViaApi(context: BrowserContext, who: Account = ADMIN): Promise<void> {
  const res = await context.request.post('/api/auth/login', {
    data: { email: who.email, password: who.password },
    headers: originHeader(),
  });
  if (!res.ok()) throw new Error(`API sign-in as ${who.email} failed: ${res.status()} ${await res.text()}`);
}

/** A fresh context at a viewport and theme, already signed in. */
export async function signedInPage(
  browser: Browser,
  who: Account = ADMIN,
  opts: ViewOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const view = await newPage(browser, opts);
  await signInViaApi(view.context, who);
  return view;
}

/** Fills the login form and submits it (the page must be showing it). */
export async function signInThroughForm(page: Page, who: Account): Promise<void> {
  await page.getByLabel(en.auth.email, { exact: true }).fill(who.email);
  await page.getByLabel(en.auth.password, { exact: true }).fill(who.password);
  await page.getByRole('button', { name: en.auth.submit, exact: true }).click();
}

/** The users' rows: a table, or on a phone (below 640 px) a list of cards with the same name. */
export const usersTable = (page: Page): Locator =>
  page
    .getByRole('table', { name: en.usersList.table.label, exact: true })
    .or(page.getByRole('list', { name: en.usersList.table.label, exact: true }));

/** A row's link to its user's page, in a table row or on a card. */
const ROW_LINK = ':is(tbody tr, li) a[href^="/users/"]';

/** The ids of the rows the table shows, read from the links to their pages, in order. */
export async function shownIds(page: Page): Promise<number[]> {
  return usersTable(page)
    .locator(ROW_LINK)
    .evaluateAll((links) =>
      links.map((link) => Number((link.getAttribute('href') ?? '').split('/')[2])).filter((id) => Number.isFinite(id)),
    );
}

/** Waits until the table shows real rows (not skeletons, not stale placeholder data). */
export async function waitForRows(page: Page, timeout = 30_000): Promise<void> {
  const table = usersTable(page);
  try {
    await table.locator(ROW_LINK).first().waitFor({ timeout });
  } catch (error) {
    const shown = (
      await page
        .locator('body')
        .innerText()
        .catch(() => '')
    )
      .replace(/\s+/g, ' ')
      .slice(0, 600);
    throw new Error(`No user rows at ${page.url()} after ${timeout} ms. The page shows: ${shown}`, { cause: error });
  }
  await expect.poll(() => table.getAttribute('aria-busy'), { timeout }).toBeNull();
}

/** `GET /api/users?<query>` with the context's session: what the table should show for that URL. */
export async function apiList(page: Page, query = ''): Promise<UsersListResult> {
  const res = await page.request.get(`/api/users${query ? `?${query}` : ''}`);
  if (!res.ok()) throw new Error(`GET /api/users?${query} → ${res.status()} ${await res.text()}`);
  return (await res.json()) as UsersListResult;
}

export const idsOf = (rows: readonly UserRow[]) => rows.map((row) => row.id);

/** Waits until the table shows exactly these ids (in this order). */
export async function expectShownIds(page: Page, ids: readonly number[], timeout = 15_000): Promise<void> {
  await expect.poll(() => shownIds(page), { timeout }).toEqual(ids);
  await expect.poll(() => usersTable(page).getAttribute('aria-busy'), { timeout }).toBeNull();
}

/** The page's query string, parsed by URLSearchParams (bracketed keys kept as written). */
export const searchOf = (page: Page) => new URL(page.url()).searchParams;

/** Creates a user through the API (admin cookie on the page's context) and returns it. */
export async function createUserViaApi(
  page: Page,
  user: { name: string; email: string; password?: string; is_active?: boolean; roles_ids?: number[] },
): Promise<{ id: number; name: string; email: string }> {
  const password = user.password ?? 'e2e-created-password';
  const res = await page.request.post('/api/users', {
    data: { roles_ids: [], is_active: true, ...user, password, password_confirmation: password },
    headers: originHeader(),
  });
  if (!res.ok()) throw new Error(`POST /api/users → ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { item: { id: number; name: string; email: string } };
  return body.item;
}

/** Finds the one demo user whose e-mail contains `needle` (and checks it is unique). */
export async function findUser(page: Page, needle: string, query = ''): Promise<UserRow> {
  const list = await apiList(page, `q=${encodeURIComponent(needle)}&perPage=100${query ? `&${query}` : ''}`);
  const row = list.rows.find((r) => r.email.includes(needle));
  if (!row) throw new Error(`no user matching ${needle}`);
  return row;
}

/** Waits for a toast (sonner) whose text contains `text`. */
export async function waitForToast(page: Page, text: string | RegExp, timeout = 10_000): Promise<Locator> {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
  await toast.waitFor({ timeout });
  return toast;
}

/**
 * Closes every toast by its own button. Sonner holds a toast for as long as the pointer rests on
 * the toaster, and a click that navigated can leave the pointer exactly there: waiting for the
 * toast to time out then waits forever.
 */
export async function closeToasts(page: Page): Promise<void> {
  const toasts = page.locator('[data-sonner-toast]');
  for (let i = 0; i < 5 && (await toasts.count()) > 0; i++) {
    await toasts.first().locator('button[data-close-button]').click();
    await toasts
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
  }
  await toasts.first().waitFor({ state: 'detached', timeout: 5_000 });
}

const inFlight = new WeakMap<Page, Set<unknown>>();

/** Starts counting the page's requests in flight (for `networkQuiet`); call once, right after opening it. */
export function trackNetwork(page: Page): void {
  if (inFlight.has(page)) return;
  const pending = new Set<unknown>();
  inFlight.set(page, pending);
  page.on('request', (req) => pending.add(req));
  page.on('requestfinished', (req) => pending.delete(req));
  page.on('requestfailed', (req) => pending.delete(req));
}

/**
 * Waits until no request has been in flight for `quietMs`. Unlike `waitForLoadState('networkidle')`,
 * which is reached once per document load, this also holds after in-app navigation and clicks.
 */
export async function networkQuiet(page: Page, quietMs = 250, timeout = 15_000): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) throw new Error('call trackNetwork(page) first');
  const until = Date.now() + timeout;
  let quietSince = pending.size === 0 ? Date.now() : Number.POSITIVE_INFINITY;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    if (pending.size > 0) quietSince = Number.POSITIVE_INFINITY;
    else if (quietSince === Number.POSITIVE_INFINITY) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
  }
  throw new Error(`network still busy after ${timeout} ms: ${pending.size} request(s) in flight`);
}

/** How many elements with this role and exact accessible name the page has. */
export const countOf = (page: Page, role: Parameters<Page['getByRole']>[0], name: string) =>
  page.getByRole(role, { name, exact: true }).count();

/** The controls of a user's page that would change the user, by role and accessible name. */
const MUTATING_CONTROLS = [
  ['link', en.userActions.edit],
  ['button', en.userActions.edit],
  ['button', en.userActions.activate],
  ['button', en.userActions.deactivate],
  ['button', en.userActions.delete],
  ['button', en.userActions.restore],
  ['button', en.userActions.forceDelete],
] as const;

/** The mutating controls the page shows, named (an empty list when there are none). */
export async function mutatingControls(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const [role, name] of MUTATING_CONTROLS) {
    if ((await countOf(page, role, name)) > 0) found.push(`${role} “${name}”`);
  }
  return found;
}
