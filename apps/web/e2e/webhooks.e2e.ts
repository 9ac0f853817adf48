import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserViaApi, en, originHeader, signedInPage, waitForToast } from './support/app';
import { baseUrl, browserMissing, launch, screenshot } from './support/browser';
import { VIEWER } from './support/env';
import { apiWebhooks, createWebhookViaApi, settledDeliveries } from './support/integrations';
import { type Receiver, startReceiver } from './support/receiver';

const t = en.webhooks;
const d = t.deliveries;

let browser: Browser;
let receiver: Receiver;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await browser?.close();
});

const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/** A Standard Webhooks signature checked by hand: HMAC-SHA256 of `id.timestamp.body` with the secret's bytes. */
function signatureValid(secret: string, headers: Record<string, string | string[] | undefined>, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const expected = crypto.createHmac('sha256', key).update(signed).digest('base64');
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((part) => part === `v1,${expected}`);
}

/** Reloads until the delivery log shows `count` rows of this status (the log refreshes itself only while one is on its way). */
async function waitForLogRows(page: Page, status: string, count: number) {
  const table = page.getByRole('table', { name: d.table.label });
  await expect
    .poll(
      async () => {
        const n = await table.locator('tbody tr').filter({ hasText: status }).count();
        if (n < count) await page.reload();
        return n;
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toBeGreaterThanOrEqual(count);
}

describe.skipIf(browserMissing())('webhooks', () => {
  it('adds an endpoint through the form, shows its secret once, and logs real signed deliveries', async () => {
    const { context, page } = await signedInPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.goto('/webhooks');
    await page.getByRole('heading', { level: 1, name: t.title }).waitFor();
    await page.getByRole('link', { name: t.add, exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/webhooks/new');

    // Refused before sending, in the contract's words, next to each field.
    await page.getByRole('button', { name: t.form.create, exact: true }).click();
    await page.getByText('Give the endpoint URL.', { exact: true }).waitFor();
    await page.getByText('Pick at least one event.', { exact: true }).waitFor();
    await page.getByLabel(t.form.url, { exact: true }).fill('ftp://example.com/hook');
    await page.getByRole('button', { name: t.form.create, exact: true }).click();
    await page.getByText('The URL must start with https:// or http://.', { exact: true }).waitFor();

    const description = `E2E receiver ${stamp()}`;
    await page.getByLabel(t.form.url, { exact: true }).fill(`${receiver.url}/ok`);
    await page.getByLabel(t.form.description, { exact: true }).fill(description);
    for (const event of ['user.created', 'user.updated'] as const) {
      await page.getByRole('checkbox', { name: `${t.events[event].label} ${event}`, exact: true }).click();
    }
    await page.getByRole('button', { name: t.form.create, exact: true }).click();

    const reveal = page.getByRole('dialog', { name: t.secret.createdTitle });
    const secret = await reveal.getByLabel(t.secret.label, { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await reveal.getByRole('button', { name: t.secret.copy, exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await reveal.getByRole('button', { name: t.secret.done, exact: true }).click();
    await page.waitForURL((url) => /^\/webhooks\/\d+$/.test(url.pathname));
    expect(await page.content()).not.toContain(secret);
    const webhookId = Number(new URL(page.url()).pathname.split('/')[2]);

    // Two real events: a user created, then renamed.
    const before = receiver.received.length;
    const user = await createUserViaApi(page, { name: 'Rhea Receiver', email: `rhea.${stamp()}@example.com` });
    const edit = (await (await page.request.get(`/api/users/${user.id}/edit`)).json()) as { item: { version: string } };
    const renamed = await page.request.put(`/api/users/${user.id}`, {
      data: { name: 'Rhea Received', email: user.email, version: edit.item.version },
      headers: originHeader(),
    });
    expect(renamed.ok()).toBe(true);
    await settledDeliveries(page, webhookId, 2);
    const mine = receiver.received.slice(before).filter((hook) => hook.body.includes(user.email));
    expect(mine.map((hook) => hook.type).sort()).toEqual(['user.created', 'user.updated']);
    // Signed with the secret the page showed, checked here without the product's code.
    for (const hook of mine) expect(signatureValid(secret, hook.headers, hook.body)).toBe(true);

    await waitForLogRows(page, d.statuses.succeeded, 2);
    const rows = page.getByRole('table', { name: d.table.label }).locator('tbody tr');
    expect(await rows.filter({ hasText: t.events['user.updated'].label }).filter({ hasText: '200' }).count()).toBe(1);

    // A test event on request: signed like the rest, and in the log once it has gone out.
    const beforeTest = receiver.received.length;
    await page.getByRole('button', { name: t.show.test, exact: true }).click();
    await waitForToast(page, t.show.testSent);
    await settledDeliveries(page, webhookId, 3);
    const [test] = receiver.received.slice(beforeTest).filter((hook) => hook.type === 'webhook.test');
    expect(test && signatureValid(secret, test.headers, test.body)).toBe(true);
    await waitForLogRows(page, d.statuses.succeeded, 3);
    expect(await rows.filter({ hasText: t.events['webhook.test'].label }).count()).toBe(1);
    await screenshot(page, 'webhook-log-light-1280');
    await context.close();
  });

  it('shows failed deliveries filtered in the URL, one in full, and redelivers it', async () => {
    const { context, page } = await signedInPage(browser, undefined, { theme: 'dark', width: 375 });
    const { item } = await createWebhookViaApi(page, {
      url: `${receiver.url}/fail/always`,
      description: `E2E failing ${stamp()}`,
      events: ['user.created'],
      active: true,
    });
    const user = await createUserViaApi(page, { name: 'Fay Failure', email: `fay.${stamp()}@example.com` });
    const log = await settledDeliveries(page, item.id, 1);
    const failed = log.rows.find((delivery) => delivery.status === 'failed');
    if (!failed) throw new Error(`no failed delivery: ${JSON.stringify(log.rows)}`);

    await page.goto(`/webhooks/${item.id}`);
    const status = page.getByRole('group', { name: d.filterStatus });
    await status.getByRole('button', { name: d.statuses.failed, exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('filters[status][]')).toEqual(['failed']);
    const events = page.getByRole('group', { name: d.filterEvent });
    await events.getByRole('button', { name: t.events['user.created'].label, exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('filters[event_type][]')).toEqual(['user.created']);
    const link = page.locator(`a[href="/webhooks/${item.id}/deliveries/${failed.id}"]`);
    await link.waitFor();
    // Reloading keeps the filters: they live in the URL.
    await page.reload();
    expect(await status.getByRole('button', { name: d.statuses.failed }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'webhook-log-failed-dark-375');

    await link.click();
    await page.waitForURL((url) => url.pathname === `/webhooks/${item.id}/deliveries/${failed.id}`);
    await page.getByRole('region', { name: t.delivery.payloadTitle }).getByText(user.email).waitFor();
    const attempts = page.getByRole('region', { name: t.delivery.attemptsTitle });
    await attempts.getByText(t.delivery.attempt(2), { exact: true }).waitFor();
    expect(await attempts.getByRole('listitem').filter({ hasText: '500' }).count()).toBe(2);

    await page.getByRole('button', { name: t.delivery.redeliver, exact: true }).click();
    await waitForToast(page, t.delivery.redelivered);
    await expect
      .poll(
        async () => {
          await page.reload();
          await attempts.getByText(t.delivery.attempt(2), { exact: true }).waitFor();
          return attempts.getByText(t.delivery.attempt(3), { exact: true }).count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);
    await context.close();
  });

  it('rotates an endpoint’s secret and deletes the endpoint, each after a question', async () => {
    const { context, page } = await signedInPage(browser);
    const description = `E2E rotate ${stamp()}`;
    const { item, secret } = await createWebhookViaApi(page, {
      url: `${receiver.url}/ok`,
      description,
      events: ['user.deleted'],
      active: true,
    });
    await page.goto(`/webhooks/${item.id}`);
    await page.getByRole('button', { name: t.rotate.button, exact: true }).click();
    await page
      .getByRole('dialog', { name: t.rotate.title })
      .getByRole('button', { name: t.rotate.confirm, exact: true })
      .click();
    const reveal = page.getByRole('dialog', { name: t.secret.rotatedTitle });
    const rotated = await reveal.getByLabel(t.secret.label, { exact: true }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await reveal.getByRole('button', { name: t.secret.done, exact: true }).click();

    await page.getByRole('button', { name: t.show.delete, exact: true }).click();
    await page
      .getByRole('dialog', { name: t.remove.title(item.url) })
      .getByRole('button', { name: t.remove.confirm, exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === '/webhooks');
    await waitForToast(page, t.remove.done);
    expect((await apiWebhooks(page)).items.some((w) => w.id === item.id)).toBe(false);
    expect(await page.getByText(description, { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('is neither in the navigation nor open to an account without webhooks.manage', async () => {
    const { context, page } = await signedInPage(browser, VIEWER);
    await page.goto('/webhooks');
    await page.getByText(en.common.forbiddenTitle, { exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: en.nav.label });
    expect(await nav.getByRole('link', { name: en.nav.webhooks, exact: true }).count()).toBe(0);
    expect((await page.request.get('/api/webhooks')).status()).toBe(403);
    await context.close();
  });
});
