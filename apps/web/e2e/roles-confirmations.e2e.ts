import type { RoleItem } from '@app/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleEditorMessages } from '../src/i18n/role-editor-messages';
import { createUserViaApi, en, originHeader, signedInPage, waitForToast } from './support/app';
import { browserMissing, captureViews, launch } from './support/browser';

const r = roleEditorMessages;
const f = r.form;
const p = r.preview;
const label = (name: string) => en.permissions.names[name]?.label ?? name;
const box = (page: Page, name: string) => page.getByRole('checkbox', { name: label(name), exact: true });
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** `POST /api/roles` with the page's session (the set-up of a test, not what it tests). */
async function createRoleViaApi(page: Page, name: string, permissions: string[]): Promise<RoleItem> {
  const res = await page.request.post('/api/roles', {
    data: { name, description: 'Answers customers', permissions },
    headers: originHeader(),
  });
  if (!res.ok()) throw new Error(`POST /api/roles → ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { item: RoleItem }).item;
}

async function roleViaApi(page: Page, id: number): Promise<{ status: number; item?: RoleItem }> {
  const res = await page.request.get(`/api/roles/${id}?with[]=permissions`);
  return { status: res.status(), ...(res.ok() ? ((await res.json()) as { item: RoleItem }) : {}) };
}

describe.skipIf(browserMissing())('confirmations in proportion', () => {
  it('deleting a role with members shows what they lose and asks for the role’s name', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 1280, height: 900 });
    const name = `E2E Help Desk ${stamp()}`;
    const role = await createRoleViaApi(page, name, ['users.view', 'users.export']);
    for (const n of [1, 2]) {
      await createUserViaApi(page, {
        name: `Desk Member ${n}`,
        email: `desk-member-${n}-${role.id}@example.com`,
        roles_ids: [role.id],
      });
    }

    await page.goto(`/roles/${role.id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByRole('button', { name: r.show.delete, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: r.remove.title(name), exact: true });
    await dialog.getByText(r.remove.members(2, name), { exact: false }).waitFor();
    const sentence = p.sentence([p.lose(2, 'users.view'), p.lose(2, 'users.export')]);
    await dialog.getByText(sentence, { exact: true }).waitFor({ timeout: 15_000 });
    await dialog.getByText('Desk Member 1, Desk Member 2').first().waitFor();

    const field = dialog.getByRole('textbox', { name: r.remove.typeName(name), exact: true });
    const confirm = dialog.getByRole('button', { name: r.remove.confirm, exact: true });
    // Focus starts in the name field; the button waits for the name.
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await confirm.isDisabled()).toBe(true);
    await field.fill(name.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    // As the server compares role names: case and spacing aside.
    await field.fill(`  ${name.toUpperCase().replace(/ /g, '  ')} `);
    expect(await confirm.isEnabled()).toBe(true);
    await captureViews(page, 'role-delete-with-members');

    await field.press('Enter');
    await page.waitForURL((url) => url.pathname === '/roles');
    await waitForToast(page, r.remove.done(name));
    expect((await roleViaApi(page, role.id)).status).toBe(404);
    await context.close();
  });

  it('a save that meets someone else’s change shows both side by side and reloads keeping my edits', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 1280, height: 900 });
    const name = `e2e-conflict-${stamp()}`;
    const role = await createRoleViaApi(page, name, ['users.view', 'users.export']);

    await page.goto(`/roles/${role.id}/edit`);
    await box(page, 'users.export').waitFor();
    await page.getByRole('textbox', { name: f.name, exact: true }).fill(`${name}-mine`);
    await box(page, 'users.setActive').check();

    // Someone else saves first: a new description, and users.export taken away.
    const res = await page.request.put(`/api/roles/${role.id}`, {
      data: { name, description: 'Their description', permissions: ['users.view'], version: role.version },
      headers: originHeader(),
    });
    expect(res.status(), await res.text()).toBe(200);

    await page.getByRole('button', { name: f.save, exact: true }).click();
    const table = page.getByRole('table', { name: f.conflict.caption, exact: true });
    await table.waitFor();
    // Each cell as a screen reader reads it: the phone-only labels are hidden from it.
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('th, td')].map((cell) => {
          const copy = cell.cloneNode(true) as Element;
          for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
          return copy.textContent;
        }),
      ),
    );
    expect(rows).toEqual([
      [f.name, name, `${name}-mine`],
      [f.description, 'Their description', f.conflict.notEdited],
      [f.permissionsTitle, 'users.view', f.conflict.permissionChanges(['users.export', 'users.setActive'], [])],
    ]);
    // The whole page is pictured: from its top, so the sticky header is drawn where it belongs.
    await page.evaluate(() => window.scrollTo(0, 0));
    await captureViews(page, 'role-edit-conflict', 1100);

    await page.getByRole('button', { name: f.conflict.keep, exact: true }).click();
    await page.getByText(f.conflict.keptTitle, { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: f.description }).inputValue()).toBe('Their description');
    expect(await box(page, 'users.setActive').isChecked()).toBe(true);
    await page.getByRole('button', { name: f.save, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/roles/${role.id}`);
    await waitForToast(page, f.saved);
    const saved = (await roleViaApi(page, role.id)).item;
    expect(saved?.name).toBe(`${name}-mine`);
    expect(saved?.description).toBe('Their description');
    expect((saved?.permissions ?? []).map((permission) => permission.name).sort()).toEqual([
      'users.export',
      'users.setActive',
      'users.view',
    ]);
    await context.close();
  });
});
