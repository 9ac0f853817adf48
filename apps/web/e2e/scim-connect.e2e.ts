import { PERMISSIONS, type Permission } from '@app/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage } from './support/app';
import { baseUrl, browserMissing, captureViews, launch } from './support/browser';
import { ADMIN } from './support/env';
import { withBearer } from './support/integrations';

const t = en.tokens.provisioning;
const form = en.tokens.form;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PROVISIONING: readonly Permission[] = [
  'users.view',
  'users.create',
  'users.update',
  'users.setActive',
  'users.delete',
  'roles.view',
  'roles.create',
  'roles.update',
  'roles.delete',
];
const label = (permission: Permission) => en.permissions.names[permission]?.label ?? permission;

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(browserMissing())('connecting an identity provider', () => {
  it('makes a provisioning token, shows the SCIM URL and the token once, and the audit log shows what the provider did', async () => {
    const { context, page } = await signedInPage(browser, ADMIN);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.goto('/account/tokens');
    const entry = page.getByRole('button', { name: t.open, exact: true });
    await entry.waitFor();
    await captureViews(page, 'scim-connect-entry');
    await entry.click();

    const dialog = page.getByRole('dialog', { name: t.form.title });
    const name = dialog.getByLabel(form.name, { exact: true });
    expect(await name.inputValue()).toBe(t.form.defaultName);
    // A name of this file's own: the browser tests share one server.
    await name.fill('Okta (browser test)');
    const scopes = dialog.getByRole('group', { name: form.scopes });
    const ticked = await scopes.locator('li:has([role=checkbox][aria-checked=true]) label').allTextContents();
    expect(ticked).toEqual(PERMISSIONS.filter((p) => PROVISIONING.includes(p)).map(label));
    await captureViews(page, 'scim-connect-form');
    await dialog.getByRole('button', { name: form.submit, exact: true }).click();

    const done = page.getByRole('dialog', { name: t.connect.title });
    const url = await done.getByRole('group', { name: t.connect.urlLabel, exact: true }).locator('code').textContent();
    expect(url).toBe(`${baseUrl()}/api/scim/v2`);
    if (!url) throw new Error('no SCIM base URL shown');
    const token = await done.getByLabel(t.connect.token.label, { exact: true }).inputValue();
    await done.getByText(t.connect.token.warningTitle, { exact: true }).waitFor();
    await done.getByRole('button', { name: `${t.connect.url.copy} ${t.connect.urlLabel}`, exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await done.getByRole('button', { name: t.connect.token.copy, exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await captureViews(page, 'scim-connect-done', 1400);

    // The values work as an identity provider uses them: Okta's test connection, then a create.
    await withBearer(token, async (api) => {
      const probe = await api.get(`${url}/Users?startIndex=1&count=2`);
      expect(probe.status()).toBe(200);
      const created = await api.post(`${url}/Users`, {
        headers: { 'content-type': 'application/scim+json' },
        data: JSON.stringify({
          schemas: [USER],
          userName: 'scim.browser@example.com',
          name: { givenName: 'Scim', familyName: 'Browser' },
          emails: [{ primary: true, value: 'scim.browser@example.com', type: 'work' }],
          active: true,
        }),
      });
      expect(created.status()).toBe(201);
    });

    // The audit log's SCIM view opens beside the dialog, which keeps the token.
    const [audit] = await Promise.all([
      context.waitForEvent('page'),
      done.getByRole('link', { name: `${t.connect.audit} ${t.connect.newTab}`, exact: true }).click(),
    ]);
    await audit.waitForLoadState();
    expect(decodeURIComponent(new URL(audit.url()).search)).toBe('?filters[via]=scim');
    const chips = audit.getByRole('list', { name: en.audit.filters.chipsLabel });
    await chips.getByText(en.audit.filters.viaChoices.scim, { exact: true }).waitFor();
    await audit.getByText(en.audit.via.scim('Okta (browser test)'), { exact: true }).first().waitFor();
    await captureViews(audit, 'scim-audit-view');
    await audit.close();

    await done.getByRole('button', { name: t.connect.done, exact: true }).click();
    await done.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(token);
    await context.close();
  });
});
