import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributesMessages } from '../src/i18n/attributes-messages';
import { closeToasts, createUserViaApi, en, originHeader, signedInPage, waitForToast } from './support/app';
import { browserMissing, captureViews, launch } from './support/browser';

// Custom attributes through the SPA: declared on the settings page, filled on a user's form, read
// on the user's page; a change that breaks a stored value asks first; a removal says what goes.
// Screenshots at 1280 and 375 px, light and dark, each checked by axe.

const m = attributesMessages;
const f = m.attributeForm;

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});

// Keys of this run's own (the server is shared by every browser test file), removed at the end
// whatever happens, so no other file sees these fields on its forms.
const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.replace(/[^a-z0-9]/g, '');
const DEPARTMENT = `department_${suffix}`;
const MANAGER = `manager_${suffix}`;
afterAll(async () => {
  if (!browser) return;
  const { context, page } = await signedInPage(browser);
  for (const key of [DEPARTMENT, MANAGER]) {
    await page.request.delete(`/api/attributes/${key}`, { headers: originHeader() }).catch(() => undefined);
  }
  await context.close();
  await browser.close();
});

/** Before a picture: nothing focused, the top of the page, no toast over the content. */
async function settle(page: Page) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await closeToasts(page);
}

/** Declares an attribute through the form, from the settings list; back on the list after. */
async function declare(page: Page, label: string, key: string, typeLabel: string, fill?: () => Promise<void>) {
  await page.getByRole('link', { name: m.attributes.add, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/settings/attributes/new');
  await page.getByLabel(f.label, { exact: true }).fill(label);
  await page.getByLabel(f.key, { exact: true }).fill(key);
  await page.getByLabel(f.type, { exact: true }).selectOption({ label: typeLabel });
  await fill?.();
  await page.getByRole('button', { name: f.create, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/settings/attributes');
  await waitForToast(page, m.attributes.created(label));
}

describe.skipIf(browserMissing())('custom attributes in the browser', () => {
  it('declares attributes on the settings page, fills them on a user and shows them on the user page', async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto('/users');
    await page.getByRole('link', { name: en.nav.attributes, exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: m.attributes.title }).waitFor();

    // The contract's refusal before anything is sent: an enumeration lists its values.
    await page.getByRole('link', { name: m.attributes.add, exact: true }).click();
    await page.getByLabel(f.label, { exact: true }).fill('Department');
    await page.getByLabel(f.type, { exact: true }).selectOption({ label: m.attributeTypes.enum });
    await page.getByRole('button', { name: f.create, exact: true }).click();
    await page.getByText('List the values people can pick.', { exact: true }).waitFor();
    await page.getByLabel(f.values, { exact: true }).fill('Sales\nSupport\nLegal');
    await page.getByRole('radio', { name: m.sensitivities.personal.label, exact: true }).check();
    await settle(page);
    await captureViews(page, 'attributes-form');
    // Leaving with unsaved edits asks first.
    await page.getByRole('link', { name: m.attributes.back, exact: true }).first().click();
    const leave = page.getByRole('dialog', { name: en.userForm.leaveTitle });
    await leave.getByRole('button', { name: en.userForm.leaveConfirm, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/settings/attributes');

    await declare(page, 'Department', DEPARTMENT, m.attributeTypes.enum, async () => {
      await page.getByLabel(f.values, { exact: true }).fill('Sales\nSupport\nLegal');
    });
    await declare(page, 'Manager', MANAGER, m.attributeTypes.user);
    const list = page.getByRole('list', { name: m.attributes.listLabel });
    await list.getByRole('heading', { name: 'Department', exact: true }).waitFor();
    await list.getByRole('heading', { name: 'Manager', exact: true }).waitFor();
    await settle(page);
    await captureViews(page, 'attributes-list');

    // A user's form offers both: a choice, and a manager found by name.
    const stamp = Date.now();
    const boss = await createUserViaApi(page, { name: 'Grace Boss', email: `grace.boss.${stamp}@example.com` });
    const ada = await createUserViaApi(page, { name: 'Ada Fields', email: `ada.fields.${stamp}@example.com` });
    await page.goto(`/users/${ada.id}/edit`);
    await page.getByLabel('Department', { exact: true }).selectOption('Support');
    await page.getByLabel('Manager', { exact: true }).fill('Grace Boss');
    await page.getByRole('button', { name: /Grace Boss/ }).click();
    await page.getByText(boss.email, { exact: true }).waitFor();
    await settle(page);
    await captureViews(page, 'attributes-user-form');
    await page.getByRole('button', { name: en.userForm.save, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/users/${ada.id}`);

    const card = page.getByRole('region', { name: m.attributeFields.cardTitle, exact: true });
    await card.getByText('Support', { exact: true }).waitFor();
    const manager = card.getByRole('link', { name: 'Grace Boss', exact: true });
    await manager.waitFor();
    expect(await manager.getAttribute('href')).toBe(`/users/${boss.id}`);
    await settle(page);
    await captureViews(page, 'attributes-user-page');

    // Dropping "Support" would break Ada's value: the server is asked first, clearing is confirmed.
    await page.goto(`/settings/attributes/${DEPARTMENT}`);
    await page.getByLabel(f.values, { exact: true }).fill('Sales\nLegal');
    await page.getByRole('button', { name: f.save, exact: true }).click();
    const impact = page.getByRole('dialog', { name: m.attributeImpact.changeTitle });
    await impact.getByText(m.attributeImpact.summary(1, 1), { exact: true }).waitFor();
    // Tall enough for the whole form: the dialog's overlay then covers the full-page picture.
    await captureViews(page, 'attributes-change-impact', 2600);
    await impact.getByRole('button', { name: m.attributeImpact.clearAndSave(1), exact: true }).click();
    await waitForToast(page, m.attributes.saved('Department'));
    const shown = (await (await page.request.get(`/api/users/${ada.id}`)).json()) as {
      item: { attributes: Record<string, unknown> };
    };
    expect(shown.item.attributes).toEqual({ [MANAGER]: boss.id });

    // Removing "Manager" says what goes with it.
    await page.getByRole('button', { name: `${m.attributes.delete} Manager`, exact: true }).click();
    const removal = page.getByRole('dialog', { name: m.attributeImpact.deleteTitle('Manager') });
    await removal.getByText(m.attributeImpact.deleteSome(1), { exact: true }).waitFor();
    await removal.getByRole('button', { name: m.attributeImpact.deleteConfirm, exact: true }).click();
    await waitForToast(page, m.attributes.deleted('Manager', 1));
    await list.getByRole('heading', { name: 'Manager', exact: true }).waitFor({ state: 'detached' });
    await context.close();
    // Several pages in four views each, a picture and axe per view: about a minute beside CI's other suites.
  }, 120_000);
});
