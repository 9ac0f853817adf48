import path from 'node:path';
import { PERMISSION_CATALOGUE } from '@app/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserViaApi, en, originHeader, signedInPage, usersTable, waitForRows } from './support/app';
import { ensureAuditStory } from './support/audit';
import { browserMissing, captureViews, launch, screenshot, seriousA11yViolations, showTheme } from './support/browser';
import { RESULTS_DIR } from './support/env';
import { createTokenViaApi, withBearer } from './support/integrations';

// The states a page reaches only once something is opened or picked — a row's menu, the bulk bar,
// a dry run's report, the filter form — each checked by axe in both themes, and the layouts the
// review found wrong (the audit log at 1280 px, a role's page), pictured. One browser, one
// signed-in context per test; nothing is changed but a few audit events of the test's own.

const t = en.usersList;

let browser: Browser;
let viewerRoleId = 0;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  const { context, page } = await signedInPage(browser);
  const roles = (await (await page.request.get('/api/roles?q=viewer')).json()) as {
    rows: Array<{ id: number; name: string }>;
  };
  viewerRoleId = roles.rows.find((role) => role.name === 'viewer')?.id ?? 0;
  await context.close();
});
afterAll(async () => {
  await browser?.close();
});

/** axe's serious and critical findings, one line each (an empty list when there are none). */
async function axeFindings(page: Page): Promise<string[]> {
  return (await seriousA11yViolations(page)).map(
    (v) => `${v.id} (${v.nodes}): ${v.help}\n${v.examples.map((e) => `    • ${e}`).join('\n')}`,
  );
}

const bar = (page: Page) => page.getByRole('region', { name: t.selection.label, exact: true });

describe.skipIf(browserMissing())('interactive states (axe-core, both themes)', () => {
  it('a row’s open menu on the users list, with an action the server refuses and its reason', async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto('/users?filters[is_active]=active');
    await waitForRows(page);
    const menu = page.getByRole('menu');
    const trigger = usersTable(page)
      .getByRole('button', { name: /^Actions for / })
      .first();
    for (const theme of ['light', 'dark'] as const) {
      await showTheme(page, theme);
      // A menu closes when the window loses focus (as a screenshot may make it): opened afresh.
      if (!(await menu.isVisible())) await trigger.click();
      // An active user's Delete is refused ("deactivate first"): named by its label, described by the reason.
      const refused = menu.getByRole('menuitem', { name: t.rowActions.delete, exact: true });
      expect(await refused.getAttribute('aria-disabled')).toBe('true');
      const reasonId = (await refused.getAttribute('aria-describedby')) ?? '';
      expect((await page.locator(`[id="${reasonId}"]`).innerText()).length).toBeGreaterThan(0);
      // The rest of the page is not hidden from assistive technology while its links stay focusable.
      expect(await page.locator('[aria-hidden="true"] :is(a[href], button, input)').count()).toBe(0);
      expect(await axeFindings(page), theme).toEqual([]);
      expect(await menu.isVisible(), 'the menu stayed open while axe looked').toBe(true);
      await page.screenshot({ path: path.join(RESULTS_DIR, `interactive-row-menu-${theme}.png`) });
    }
    await context.close();
  });

  it('the bulk bar over a selected page, offering every match', async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto('/users');
    await waitForRows(page);
    await usersTable(page).getByRole('checkbox', { name: t.table.selectPage, exact: true }).click();
    await bar(page)
      .getByRole('button', { name: /^Select all/ })
      .waitFor();
    await captureViews(page, 'interactive-bulk-bar', 800);
    await context.close();
  });

  it('a dry run’s report whose skipped users scroll, at 1280 and 375 px', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 375, height: 800 });
    // Giving viewer to ten who hold it already: every one skipped, with the reason.
    await page.goto(`/users?filters[role_id][]=${viewerRoleId}`);
    await waitForRows(page);
    await page.getByRole('checkbox', { name: t.table.selectPage, exact: true }).click();
    await bar(page).getByRole('button', { name: t.bulk.addRole, exact: true }).click();
    const picker = page.getByRole('dialog', { name: t.bulk.role.pickTitle.addRole(10) });
    await picker.getByLabel(t.bulk.role.label, { exact: true }).selectOption({ label: 'viewer' });
    await picker.getByRole('button', { name: t.bulk.role.next, exact: true }).click();
    const check = page.getByRole('dialog', { name: t.bulk.role.title.addRole(10, 'viewer') });
    const skipped = check.getByRole('region', { name: t.bulk.skippedList, exact: true });
    await skipped.waitFor();
    // It does scroll on a phone, and the keyboard reaches it.
    expect(await skipped.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await skipped.getAttribute('tabindex')).toBe('0');
    await captureViews(page, 'interactive-dry-run', 800, [375, 1280]);
    await context.close();
  });
});

describe.skipIf(browserMissing())('layouts the review found wrong', () => {
  it('the filter form’s footer covers the role boxes scrolled under it', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 1280, height: 560 });
    await page.goto('/users');
    await waitForRows(page);
    await page.getByRole('button', { name: t.filters.button, exact: true }).click();
    const form = page.getByRole('dialog', { name: t.filters.heading, exact: true });
    const apply = form.getByRole('button', { name: t.filters.apply, exact: true });
    await apply.waitFor();
    // Scroll the form so a role's box sits half under the footer, then ask what is drawn at its middle.
    const covered = await form.evaluate((popover, legend) => {
      const footer = popover.querySelector('form > div:last-child') as HTMLElement;
      const roles = [...popover.querySelectorAll('fieldset')].find((set) => set.textContent?.startsWith(legend));
      const box = roles?.querySelector('button[role="checkbox"]') as HTMLElement;
      popover.scrollTop += box.getBoundingClientRect().top - footer.getBoundingClientRect().top + 6;
      const { left, top, width, height } = box.getBoundingClientRect();
      if (top + height / 2 < footer.getBoundingClientRect().top) return 'the box is not under the footer';
      const drawn = document.elementFromPoint(left + width / 2, top + height / 2);
      return footer.contains(drawn) ? 'footer' : `${drawn?.tagName} ${drawn?.getAttribute('role')}`;
    }, t.filters.roles);
    expect(covered).toBe('footer');
    // What the screen shows (a full-page picture would give the form room to stop scrolling).
    for (const theme of ['light', 'dark'] as const) {
      await showTheme(page, theme);
      await page.screenshot({ path: path.join(RESULTS_DIR, `interactive-filters-footer-${theme}.png`) });
    }
    await context.close();
  });

  it('the audit log fits 1280 px: no sideways scrolling, no column cut, with long names and tokens', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 1280, height: 800 });
    await ensureAuditStory(page);
    // Events as a busy installation has them: a long name, changed through a long-named token.
    const stamp = Date.now();
    const person = await createUserViaApi(page, {
      name: `Maximiliana Kowalczyk-Montgomery ${stamp}`,
      email: `maximiliana.kowalczyk-montgomery.${stamp}@subsidiary.example.com`,
    });
    const { token } = await createTokenViaApi(page, {
      name: `Nightly HR sync from Workday (production tenant) ${stamp}`,
      scopes: null,
      expires_at: null,
    });
    await withBearer(token, async (api) => {
      const res = await api.patch(`/api/users/${person.id}/active`, {
        data: { active: false },
        headers: originHeader(),
      });
      expect(res.status()).toBe(200);
    });
    await page.goto('/audit');
    const table = page.getByRole('table', { name: en.audit.table.label, exact: true });
    await table.locator('tbody tr a[href^="/audit/"]').first().waitFor();
    await table.getByText(en.audit.via.token(`Nightly HR sync from Workday (production tenant) ${stamp}`)).waitFor();
    const widths = await page.evaluate(() => {
      const scroller = document.querySelector('table')?.parentElement as HTMLElement;
      return {
        page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        table: [scroller.scrollWidth, scroller.clientWidth],
        columns: [...document.querySelectorAll('thead th')]
          .map((th) => `${th.textContent}: ${Math.round(th.getBoundingClientRect().width)}`)
          .join(', '),
      };
    });
    await screenshot(page, 'interactive-audit-1280');
    expect(widths.page[0], 'the page scrolls sideways').toBeLessThanOrEqual(widths.page[1] as number);
    expect(widths.table[0], `the table scrolls sideways (a column is cut): ${widths.columns}`).toBeLessThanOrEqual(
      widths.table[1] as number,
    );
    await context.close();
  });

  it('a role’s page: its real name, its description, every permission described, no guard', async () => {
    const { context, page } = await signedInPage(browser, undefined, { width: 1280, height: 900 });
    await page.goto(`/roles/${viewerRoleId}`);
    const title = page.getByRole('heading', { level: 1 });
    await title.waitFor();
    // As stored, not capitalised by CSS (innerText is what is drawn).
    expect(await title.innerText()).toBe('viewer');
    await page.getByText('Reads only: sees users and roles, and changes nothing.', { exact: true }).waitFor();
    expect(await page.getByText(/^Guard/).count()).toBe(0);
    // On a desk the matrix shows what each permission means, not only on a phone.
    for (const name of ['users.view', 'users.forceDelete', 'attributes.sensitive.view'] as const) {
      const shown = page.locator('dd').getByText(PERMISSION_CATALOGUE[name].description, { exact: true });
      expect((await shown.boundingBox())?.width ?? 0, name).toBeGreaterThan(100);
    }
    await screenshot(page, 'interactive-role-page');

    // The role names as stored on a user's page and in the edit form's picker too.
    const users = (await (
      await page.request.get(`/api/users?filters[role_id][]=${viewerRoleId}&perPage=1`)
    ).json()) as {
      rows: Array<{ id: number }>;
    };
    const id = users.rows[0]?.id;
    await page.goto(`/users/${id}`);
    const card = page.getByRole('region', { name: en.userPage.rolesTitle });
    await card.getByText('viewer', { exact: true }).waitFor();
    expect(await card.getByText('viewer', { exact: true }).innerText()).toBe('viewer');
    await page.goto(`/users/${id}/edit`);
    const box = page.getByRole('checkbox', { name: 'viewer', exact: true });
    await box.waitFor();
    expect(await page.locator(`label[for="${await box.getAttribute('id')}"]`).innerText()).toBe('viewer');
    await context.close();
  });
});
