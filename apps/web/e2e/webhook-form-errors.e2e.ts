import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage } from './support/app';
import { browserMissing, launch } from './support/browser';
import { ADMIN, RESULTS_DIR } from './support/env';

const t = en.webhooks;
const CREATE = '**/api/trpc/webhooks.create*';
const ACCEPTED_URL = 'https://hooks.example.com/refused-by-the-server';

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Fills a form the browser-side checks accept, and scrolls to its button, as a user about to press it. */
async function fillForm(page: Page): Promise<Locator> {
  await page.goto('/webhooks/new');
  await page.getByRole('heading', { level: 1, name: t.form.newTitle }).waitFor();
  await page.getByLabel(t.form.url, { exact: true }).fill(ACCEPTED_URL);
  await page.getByRole('checkbox', { name: `${t.events['user.created'].label} user.created`, exact: true }).check();
  const submit = page.getByRole('button', { name: t.form.create, exact: true });
  await submit.scrollIntoViewIfNeeded();
  return submit;
}

/** Whether the element is wholly on screen and below the sticky header (which would cover it). */
async function inSight(
  page: Page,
  target: Locator,
): Promise<{ top: number; bottom: number; headerBottom: number; height: number } & { seen: boolean }> {
  const box = await target.boundingBox();
  const headerBottom = await page.evaluate(() => document.querySelector('header')?.getBoundingClientRect().bottom ?? 0);
  const height = page.viewportSize()?.height ?? 0;
  if (!box) throw new Error('not rendered');
  const bottom = box.y + box.height;
  return { top: box.y, bottom, headerBottom, height, seen: box.y >= headerBottom && bottom <= height };
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`) });

const VIEWS = [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 1280 },
  { theme: 'light', width: 375 },
  { theme: 'dark', width: 375 },
] as const;

describe.skipIf(browserMissing())('a refused webhook form', () => {
  it.each(VIEWS)('shows the server’s field error in sight, below the header ($theme, $width px)', async (view) => {
    const { context, page } = await signedInPage(browser, ADMIN, { ...view, height: 700 });
    const submit = await fillForm(page);
    // The real server refuses it: the request leaves with a URL only the server checks for here.
    await page.route(CREATE, (route) =>
      route.continue({ postData: (route.request().postData() ?? '').replace(ACCEPTED_URL, 'ftp://example.com/hook') }),
    );
    // Scrolled so the URL field sits just under the sticky header: still "in view" for the
    // browser, which then does not scroll when the field takes focus, unless told what the header hides.
    const url = page.getByLabel(t.form.url, { exact: true });
    await url.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 12));
    await submit.evaluate((button) => (button as HTMLButtonElement).form?.requestSubmit(button as HTMLButtonElement));
    const message = page.getByText('The URL must start with https:// or http://.', { exact: true });
    await message.waitFor();
    await expect.poll(() => url.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await inSight(page, message)).toMatchObject({ seen: true });
    expect(await inSight(page, url)).toMatchObject({ seen: true });
    await shot(page, `webhook-field-error-${view.theme}-${view.width}`);
    await context.close();
  });

  it.each(VIEWS)('shows a refusal no field owns by the button, focused ($theme, $width px)', async (view) => {
    const { context, page } = await signedInPage(browser, ADMIN, { ...view, height: 700 });
    const submit = await fillForm(page);
    await page.route(CREATE, (route) => route.abort('connectionrefused'));
    await submit.click();
    const banner = page.getByRole('alert').filter({ hasText: t.form.failedTitle });
    await banner.waitFor();
    expect(await inSight(page, banner)).toMatchObject({ seen: true });
    expect(await banner.evaluate((el) => el.parentElement === document.activeElement)).toBe(true);
    await shot(page, `webhook-form-error-${view.theme}-${view.width}`);
    await context.close();
  });
});
