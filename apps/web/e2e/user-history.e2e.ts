import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, createUserViaApi, en, originHeader, signedInPage } from './support/app';
import { browserMissing, launch } from './support/browser';
import { ADMIN, MANAGER, RESULTS_DIR } from './support/env';

const h = en.audit.history;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

describe.skipIf(browserMissing())('a user’s History', () => {
  it.each([
    { theme: 'light', width: 1280 },
    { theme: 'dark', width: 1280 },
    { theme: 'light', width: 375 },
    { theme: 'dark', width: 375 },
  ] as const)('names whom the user acted on, on the actor’s own page ($theme, $width px)', async (view) => {
    // The manager renames someone; on the manager's page that edit must say whose name changed.
    const admin = await signedInPage(browser, ADMIN, view);
    const target = await createUserViaApi(admin.page, {
      name: 'Review Tester',
      email: `review.${stamp()}@example.com`,
    });
    const manager = await signedInPage(browser, MANAGER as Account);
    const me = (await (await manager.page.request.get('/api/auth/me')).json()) as { user: { id: number } };
    const edit = (await (await manager.page.request.get(`/api/users/${target.id}/edit`)).json()) as {
      item: { version: string };
    };
    const renamed = await manager.page.request.put(`/api/users/${target.id}`, {
      data: { name: 'Review Tester Two', email: target.email, version: edit.item.version },
      headers: originHeader(),
    });
    expect(renamed.ok(), await renamed.text()).toBe(true);
    await manager.context.close();

    const { page } = admin;
    await page.goto(`/users/${me.user.id}`);
    const history = page.getByRole('region', { name: h.title, exact: true });
    const entry = history.getByRole('listitem').filter({ hasText: en.audit.actions['user.update'] }).first();
    await entry.waitFor();
    const line = (await entry.innerText()).replace(/\s+/g, ' ');
    expect(line).toContain(`${h.about} Review Tester Two`);
    expect(line).not.toContain(h.by('Max Manager'));
    expect(await entry.getByRole('link', { name: 'Review Tester Two', exact: true }).getAttribute('href')).toBe(
      `/users/${target.id}`,
    );
    // Her sign-in is about her: there, who acted is what the line says.
    const signIn = history.getByRole('listitem').filter({ hasText: en.audit.actions['auth.login'] }).first();
    expect(await signIn.innerText()).toContain(h.by('Max Manager'));
    // Tall enough for the whole card: a capture stitched from scrolled views repeats the sticky header.
    await page.setViewportSize({ width: view.width, height: 3000 });
    await history.screenshot({ path: path.join(RESULTS_DIR, `history-actor-${view.theme}-${view.width}.png`) });

    // On the target's page the same event says who did it.
    await page.goto(`/users/${target.id}`);
    const theirs = page
      .getByRole('region', { name: h.title, exact: true })
      .getByRole('listitem')
      .filter({ hasText: en.audit.actions['user.update'] })
      .first();
    await theirs.waitFor();
    expect(await theirs.innerText()).toContain(h.by('Max Manager'));
    await admin.context.close();
  });
});
