import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage } from './support/app';
import { browserMissing, launch, screenshot } from './support/browser';
import { ADMIN } from './support/env';

/** What an administrator's navigation holds, in order. */
const DESTINATIONS = [
  { name: en.nav.users, path: '/users' },
  { name: en.nav.roles, path: '/roles' },
  { name: en.nav.audit, path: '/audit' },
  { name: en.nav.webhooks, path: '/webhooks' },
  { name: en.nav.signIn, path: '/settings/sign-in' },
  { name: en.nav.attributes, path: '/settings/attributes' },
  { name: en.jobs.nav, path: '/jobs' },
  { name: en.nav.status, path: '/status' },
] as const;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const menuButton = (page: Page) => page.getByRole('button', { name: en.nav.openMenu, exact: true });
const mainNav = (page: Page) => page.getByRole('navigation', { name: en.nav.label, exact: true });

/**
 * How far anything in the header reaches past the viewport's right edge (px, 0: nothing does),
 * and which of its visible parts cut their content off (a tab row scrolled sideways, a clipped word).
 */
const headerOverflow = (page: Page) =>
  page.evaluate(() => {
    const header = document.querySelector('header');
    if (!header) throw new Error('no header');
    const shown = [...header.querySelectorAll<HTMLElement>('*')].filter((el) => el.getClientRects().length > 0);
    const right = Math.max(...shown.map((el) => el.getBoundingClientRect().right));
    const clipped = shown
      .filter((el) => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return {
      past: Math.max(0, Math.ceil(right - window.innerWidth)),
      clipped,
      page: document.documentElement.scrollWidth,
    };
  });

describe.skipIf(browserMissing())('the top navigation', () => {
  it.each(['light', 'dark'] as const)(
    'fits a 375 px phone as a menu that reaches every destination (%s)',
    async (theme) => {
      const { context, page } = await signedInPage(browser, ADMIN, { width: 375, theme });
      await page.goto('/status');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await headerOverflow(page)).toEqual({ past: 0, clipped: [], page: 375 });
      expect(await mainNav(page).count(), 'the tabs are not shown on a phone').toBe(0);

      for (const { name, path } of DESTINATIONS) {
        await menuButton(page).click();
        expect(await menuButton(page).getAttribute('aria-expanded')).toBe('true');
        const link = mainNav(page).getByRole('link', { name, exact: true });
        const box = await link.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 375, `${name} lies inside the screen`).toBe(true);
        if (path === '/users') await screenshot(page, `nav-menu-${theme}-375`);
        await link.click();
        await page.waitForURL((url) => url.pathname === path);
        await expect.poll(() => mainNav(page).count(), { timeout: 5_000 }).toBe(0);
        expect(await headerOverflow(page)).toMatchObject({ past: 0, clipped: [] });
      }
      await context.close();
    },
  );

  it('opens and closes from the keyboard, marks the current page and returns focus', async () => {
    const { context, page } = await signedInPage(browser, ADMIN, { width: 375 });
    // On the second destination: Tab from the first link lands on the current page's.
    await page.goto(DESTINATIONS[1].path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await menuButton(page).focus();
    await page.keyboard.press('Enter');
    const links = mainNav(page).getByRole('link');
    await expect.poll(() => links.count()).toBe(DESTINATIONS.length);
    // Focus moves into the list; Tab walks the links in order.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe(DESTINATIONS[0].name);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(DESTINATIONS[1].name);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('page');
    await page.keyboard.press('Escape');
    await expect.poll(() => mainNav(page).count()).toBe(0);
    // The popover gives focus back once it has unmounted, a frame after the list is gone.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(en.nav.openMenu);
    expect(await menuButton(page).getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it.each(['light', 'dark'] as const)(
    'shows every destination as a tab at 1280 px, with no menu button (%s)',
    async (theme) => {
      const { context, page } = await signedInPage(browser, ADMIN, { width: 1280, theme });
      await page.goto('/status');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await menuButton(page).isVisible()).toBe(false);
      const names = await mainNav(page).getByRole('link').allTextContents();
      expect(names.map((name) => name.trim())).toEqual(DESTINATIONS.map((d) => d.name));
      expect(await headerOverflow(page)).toEqual({ past: 0, clipped: [], page: 1280 });
      await screenshot(page, `nav-tabs-${theme}-1280`);
      await context.close();
    },
  );
});
