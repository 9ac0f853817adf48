import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launch, newPage } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(browserMissing())('the served SPA', () => {
  it('loads from the API process, deep links included, without console errors', async () => {
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const res = await page.goto('/users/1/edit');
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.title()).toContain('User administration');
    expect(errors).toEqual([]);
    await context.close();
  });
});
