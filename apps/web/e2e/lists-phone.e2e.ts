import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage } from './support/app';
import { ensureAuditStory } from './support/audit';
import { browserMissing, launch, screenshot } from './support/browser';
import { RESULTS_DIR } from './support/env';
import { ensureWebhookStory } from './support/integrations';

// A phone: the list kit shows each row as a card below 640 px.
const PHONE = { width: 375, height: 812 } as const;

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Every rendered element that reaches past either side of the page, by tag and text. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`the page: ${document.documentElement.scrollWidth}px`);
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        out.push(
          `${el.tagName.toLowerCase()} ${Math.round(box.left)}…${Math.round(box.right)}: ${(el.textContent ?? '').trim().slice(0, 40)}`,
        );
      }
    }
    return out;
  });
}

/** Whether an element lies whole inside the screen's width (it may be further down: pages scroll vertically). */
async function insideWidth(locator: Locator): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
}

/** The labels of the first card, in order. */
const cardLabels = (cards: Locator) => cards.locator('li').first().locator('dt').allInnerTexts();

describe.skipIf(browserMissing())('lists on a 375 px phone', () => {
  it('shows users as cards with every column, a reachable menu per row, and working checkboxes', async () => {
    const { context, page } = await signedInPage(browser, undefined, PHONE);
    const t = en.usersList;
    await page.goto('/users');
    const cards = page.getByRole('list', { name: t.table.label, exact: true });
    await cards.locator('li a[href^="/users/"]').first().waitFor();
    expect(await page.getByRole('table').count(), 'no table on a phone').toBe(0);
    expect(await cardLabels(cards)).toEqual([
      t.columns.id,
      t.columns.email,
      t.columns.roles_count,
      t.columns.roles,
      t.columns.is_active,
      t.columns.created_at,
    ]);
    expect(await overflowing(page)).toEqual([]);

    const names = await cards.locator('li a[href^="/users/"]').allInnerTexts();
    expect(names.length).toBe(10);
    for (const name of names) {
      const menu = page.getByRole('button', { name: t.rowActions.open(name), exact: true });
      expect(await insideWidth(menu), `${name}'s menu lies inside the screen`).toBe(true);
      await menu.click();
      const opened = page.getByRole('menu');
      await opened.waitFor();
      expect(await insideWidth(opened), `${name}'s menu opens inside the screen`).toBe(true);
      expect(await opened.getByRole('menuitem', { name: t.rowActions.view }).count()).toBe(1);
      await page.keyboard.press('Escape');
      await opened.waitFor({ state: 'detached' });
    }

    const first = names[0] ?? '';
    await page.getByRole('checkbox', { name: t.table.selectRow(first), exact: true }).click();
    const bar = page.getByRole('region', { name: t.selection.label });
    await bar.getByText(t.selection.count(1), { exact: true }).waitFor();
    expect(await overflowing(page)).toEqual([]);
    await page.getByRole('checkbox', { name: t.table.selectPage, exact: true }).click();
    await bar.getByText(t.selection.count(10), { exact: true }).waitFor();
    await bar.getByRole('button', { name: t.selection.clear, exact: true }).click();
    await bar.waitFor({ state: 'detached' });
    await context.close();
  });

  it('shows audit events as cards whose link opens the event, inside the screen', async () => {
    const { context, page } = await signedInPage(browser, undefined, PHONE);
    await ensureAuditStory(page);
    const t = en.audit;
    await page.goto('/audit');
    const cards = page.getByRole('list', { name: t.table.label, exact: true });
    const links = cards.locator('li a[href^="/audit/"]');
    await links.first().waitFor();
    expect(await cardLabels(cards)).toEqual([
      t.columns.id,
      t.columns.actor_name,
      t.columns.action,
      t.columns.target_ids,
      t.columns.changes,
      t.columns.ip,
      t.columns.via,
    ]);
    expect(await overflowing(page)).toEqual([]);
    const count = await links.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i += 1) {
      expect(await insideWidth(links.nth(i)), `event ${i + 1}'s link lies inside the screen`).toBe(true);
    }
    const href = (await links.first().getAttribute('href')) ?? '';
    await links.first().click();
    await page.waitForURL((url) => url.pathname === href);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await context.close();
  });

  it('shows an endpoint’s deliveries as cards whose link opens the delivery, inside the screen', async () => {
    const { context, page } = await signedInPage(browser, undefined, PHONE);
    const { id } = await ensureWebhookStory(page);
    const d = en.webhooks.deliveries;
    await page.goto(`/webhooks/${id}`);
    const cards = page.getByRole('list', { name: d.table.label, exact: true });
    const links = cards.locator(`li a[href^="/webhooks/${id}/deliveries/"]`);
    await links.first().waitFor();
    expect(await cardLabels(cards)).toEqual([
      d.columns.status,
      d.columns.event_type,
      d.columns.attempts,
      d.columns.last_status_code,
      d.columns.last_latency_ms,
      d.columns.event_id,
    ]);
    expect(await overflowing(page)).toEqual([]);
    const count = await links.count();
    for (let i = 0; i < count; i += 1) {
      expect(await insideWidth(links.nth(i)), `delivery ${i + 1}'s link lies inside the screen`).toBe(true);
    }
    const href = (await links.first().getAttribute('href')) ?? '';
    await links.first().click();
    await page.waitForURL((url) => url.pathname === href);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await context.close();
  });

  it.each(['light', 'dark'] as const)('screenshots the three lists at 375 px (%s)', async (theme) => {
    const { context, page } = await signedInPage(browser, undefined, { ...PHONE, theme });
    const { id } = await ensureWebhookStory(page);
    const lists = [
      { name: 'users', path: '/users', label: en.usersList.table.label, link: 'a[href^="/users/"]' },
      { name: 'audit', path: '/audit', label: en.audit.table.label, link: 'a[href^="/audit/"]' },
      {
        name: 'deliveries',
        path: `/webhooks/${id}`,
        label: en.webhooks.deliveries.table.label,
        link: 'a[href*="/deliveries/"]',
      },
    ];
    for (const list of lists) {
      await page.goto(list.path);
      await page.getByRole('list', { name: list.label, exact: true }).locator(`li ${list.link}`).first().waitFor();
      expect(await overflowing(page), list.name).toEqual([]);
      await screenshot(page, `list-${list.name}-${theme}-375`);
      // What the phone shows first, at its real size.
      await page.screenshot({ path: path.join(RESULTS_DIR, `list-${list.name}-${theme}-375-screen.png`) });
    }
    // A row's menu, opened on a card.
    await page.goto('/users');
    const menu = page.getByRole('button', { name: /^Actions for / }).first();
    await menu.click();
    await page.getByRole('menu').waitFor();
    await page.screenshot({ path: path.join(RESULTS_DIR, `list-users-menu-${theme}-375-screen.png`) });
    await context.close();
  });
});
