import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, createUserViaApi, en, signedInPage, signInViaApi } from './support/app';
import {
  type AxeViolation,
  browserMissing,
  launch,
  newPage,
  screenshot,
  seriousA11yViolations,
} from './support/browser';
import { ADMIN } from './support/env';

const s = en.sessions;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const report = (violations: AxeViolation[]) =>
  violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes})\n${v.examples.join('\n')}`).join('\n');

describe.skipIf(browserMissing())('the sessions lists under axe', () => {
  it.each([
    { theme: 'light', width: 1280 },
    { theme: 'dark', width: 1280 },
    { theme: 'light', width: 375 },
    { theme: 'dark', width: 375 },
  ] as const)('your sessions: each button is named by its words and its device ($theme, $width px)', async (view) => {
    const { context, page } = await signedInPage(browser, ADMIN, view);
    // More than one session, so there are several buttons to tell apart.
    const other = await newPage(browser);
    await signInViaApi(other.context, ADMIN);
    await page.goto('/account/sessions');
    const list = page.getByRole('list', { name: s.list.label, exact: true });
    await list.getByText(s.list.thisDevice, { exact: true }).waitFor();
    const buttons = list.getByRole('button', { name: new RegExp(`^${s.list.signOut} ${s.list.signOutDevice('')}`) });
    expect(await buttons.count()).toBeGreaterThan(1);
    const violations = await seriousA11yViolations(page);
    expect(violations, report(violations)).toEqual([]);
    await screenshot(page, `sessions-named-${view.theme}-${view.width}`);
    await other.context.close();
    await context.close();
  });

  it('a user’s sessions: each End session button too', async () => {
    const admin = await signedInPage(browser, ADMIN);
    const who = { name: 'Axel Axe', email: `axel.${Date.now()}@example.com`, password: 'e2e-axel-password' };
    const user = await createUserViaApi(admin.page, who);
    const device = await newPage(browser);
    await signInViaApi(device.context, who as Account);
    await admin.page.goto(`/users/${user.id}`);
    const section = admin.page.getByRole('region', { name: s.user.title, exact: true });
    await section
      .getByRole('button', { name: new RegExp(`^${s.user.end} ${s.user.endDevice('')}`) })
      .first()
      .waitFor();
    const violations = await seriousA11yViolations(admin.page);
    expect(violations, report(violations)).toEqual([]);
    await device.context.close();
    await admin.context.close();
  });
});
