import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributesMessages } from '../src/i18n/attributes-messages';
import { closeToasts, originHeader, signedInPage, waitForToast } from './support/app';
import { baseUrl, browserMissing, captureViews, launch } from './support/browser';
import { createTokenViaApi, withBearer } from './support/integrations';

// The attributes page's SCIM card: two attributes declared over the API, mapped onto enterprise
// fields in the browser, then an identity provider's create carrying the enterprise extension
// fills them. Screenshots at 1280 and 375 px, light and dark, each checked by axe.

const t = attributesMessages.scimMapping;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const UNMAPPED = {
  employeeNumber: null,
  costCenter: null,
  organization: null,
  division: null,
  department: null,
  manager: null,
};

// Keys of this run's own: the server is shared by every browser test file. The mapping is the
// server's only one, so it is emptied at the end, and the attributes removed.
const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.replace(/[^a-z0-9]/g, '');
const NUMBER = `staff_no_${suffix}`;
const TEAM = `team_${suffix}`;
const TEAM_LABEL = `Team ${suffix}`;

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});
afterAll(async () => {
  if (!browser) return;
  const { context, page } = await signedInPage(browser);
  await page.request
    .put('/api/scim/enterprise-mapping', { data: { mapping: UNMAPPED }, headers: originHeader() })
    .catch(() => undefined);
  for (const key of [NUMBER, TEAM]) {
    await page.request.delete(`/api/attributes/${key}`, { headers: originHeader() }).catch(() => undefined);
  }
  await context.close();
  await browser.close();
});

async function declare(page: Page, body: Record<string, unknown>) {
  const res = await page.request.post('/api/attributes', {
    data: { required: false, unique: false, sensitivity: 'none', ...body },
    headers: originHeader(),
  });
  if (!res.ok()) throw new Error(`POST /api/attributes → ${res.status()} ${await res.text()}`);
}

/** Before a picture: nothing focused, the card at the top, no toast over it. */
async function settle(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await closeToasts(page);
}

describe.skipIf(browserMissing())('mapping SCIM’s enterprise fields onto attributes', () => {
  it('maps two attributes in the browser, and a SCIM create with the enterprise extension fills them', async () => {
    const { page, context } = await signedInPage(browser);
    await declare(page, { key: NUMBER, label: `Staff number ${suffix}`, type: 'string' });
    await declare(page, { key: TEAM, label: TEAM_LABEL, type: 'enum', values: ['Sales', 'Support'] });

    // The provisioning dialog's link lands here: the card scrolls into view by its anchor.
    await page.goto('/settings/attributes#scim-provisioning');
    const card = page.getByRole('region', { name: t.title, exact: true });
    const employeeNumber = card.getByLabel(t.fields.employeeNumber, { exact: true });
    await employeeNumber.waitFor();
    await employeeNumber.selectOption(NUMBER);
    const division = card.getByLabel(t.fields.division, { exact: true });
    await division.selectOption(TEAM);

    // One attribute for two fields is refused before anything is sent.
    await card.getByLabel(t.fields.department, { exact: true }).selectOption(TEAM);
    await card.getByText(t.duplicate(TEAM_LABEL, t.fields.division), { exact: true }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await settle(page);
    await captureViews(page, 'scim-mapping-duplicate', 1200);
    await division.selectOption('');
    await card.getByRole('button', { name: t.save, exact: true }).click();
    await waitForToast(page, t.saved);
    await settle(page);
    await captureViews(page, 'scim-mapping-saved', 1200);

    const saved = (await (await page.request.get('/api/scim/enterprise-mapping')).json()) as { item: unknown };
    expect(saved.item).toEqual({ mapping: { ...UNMAPPED, employeeNumber: NUMBER, department: TEAM } });

    // An identity provider's create, signed with a provisioning token of the administrator's.
    const { token } = await createTokenViaApi(page, {
      name: `SCIM mapping (browser test ${suffix})`,
      scopes: ['users.view', 'users.create', 'users.update'],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const email = `scim.mapped.${suffix}@example.com`;
    const id = await withBearer(token, async (api) => {
      const created = await api.post(`${baseUrl()}/api/scim/v2/Users`, {
        headers: { 'content-type': 'application/scim+json' },
        data: JSON.stringify({
          schemas: [USER, ENTERPRISE],
          userName: email,
          name: { givenName: 'Mapped', familyName: 'Person' },
          emails: [{ primary: true, value: email, type: 'work' }],
          active: true,
          [ENTERPRISE]: { employeeNumber: '004217', department: 'Support', costCenter: 'ignored: unmapped' },
        }),
      });
      expect(created.status(), await created.text()).toBe(201);
      return ((await created.json()) as { id: string }).id;
    });

    const user = (await (await page.request.get(`/api/users/${id}`)).json()) as {
      item: { attributes: Record<string, unknown> };
    };
    expect(user.item.attributes[NUMBER]).toBe('004217');
    expect(user.item.attributes[TEAM]).toBe('Support');
    await page.request.delete(`/api/users/${id}`, { headers: originHeader() }).catch(() => undefined);
    await context.close();
  });
});
