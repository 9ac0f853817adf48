import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, signedInPage } from './support/app';
import { apiAudit, ensureAuditStory, HISTORY_RENAMED, HISTORY_USER } from './support/audit';
import { browserMissing, captureViews, launch, screenshot } from './support/browser';
import { ADMIN } from './support/env';
import { ensureJobStory, jobTitleOf } from './support/jobs';

const t = en.audit;
const j = en.jobs;

let browser: Browser;
let story: { userId: number; editEventId: number };
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  const { context, page } = await signedInPage(browser);
  story = await ensureAuditStory(page);
  await context.close();
});
afterAll(async () => {
  await browser?.close();
});

const auditTable = (page: Page) => page.getByRole('table', { name: t.table.label, exact: true });

/** The event ids the table shows, read from the links to their pages, in order. */
const shownEventIds = (page: Page) =>
  auditTable(page)
    .locator('tbody tr a[href^="/audit/"]')
    .evaluateAll((links) => links.map((link) => Number((link.getAttribute('href') ?? '').split('/')[2])));

async function expectTableMatchesUrl(page: Page): Promise<number[]> {
  const query = new URL(page.url()).search.replace(/^\?/, '');
  const expected = (await apiAudit(page, query)).rows.map((row) => row.id);
  await expect.poll(() => shownEventIds(page), { timeout: 15_000 }).toEqual(expected);
  return expected;
}

const today = () => new Date().toISOString().slice(0, 10);

describe.skipIf(browserMissing())('the audit log', () => {
  it('filters by action and by day, as chips and in the URL, and shows what the API answers', async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto('/audit');
    await auditTable(page).locator('tbody tr a[href^="/audit/"]').first().waitFor();

    await page.getByRole('button', { name: new RegExp(`^${t.filters.button}`) }).click();
    const dialog = page.getByRole('dialog', { name: t.filters.heading });
    await dialog.getByRole('checkbox', { name: t.actions['user.update'], exact: true }).check();
    await dialog.getByRole('checkbox', { name: t.actions['user.deactivate'], exact: true }).check();
    await dialog.getByLabel(t.filters.occurredFrom, { exact: true }).fill(today());
    await dialog.getByRole('button', { name: t.filters.apply, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    const search = new URL(page.url()).searchParams;
    expect(search.getAll('filters[action][]')).toEqual(['user.update', 'user.deactivate']);
    expect(search.get('filters[occurred_between][from]')).toBe(today());
    const chipValue = `${t.actions['user.update']}, ${t.actions['user.deactivate']}`;
    await page
      .getByRole('button', { name: t.filters.removeChip(t.filters.chip.action, chipValue), exact: true })
      .waitFor();

    const ids = await expectTableMatchesUrl(page);
    expect(ids).toContain(story.editEventId);
    const badges = await auditTable(page)
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    for (const text of badges)
      expect(text.includes(t.actions['user.update']) || text.includes(t.actions['user.deactivate'])).toBe(true);

    // A day with nothing in it: the empty state offers to clear the filters.
    await page.goto('/audit?filters[occurred_between][to]=2000-01-01');
    await page.getByText(t.empty.noMatchTitle, { exact: true }).waitFor();
    await page.getByRole('button', { name: t.empty.clearFilters, exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await context.close();
  });

  it('exports exactly the events the table shows', async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto(`/audit?filters[target_id]=${story.userId}`);
    const expected = await expectTableMatchesUrl(page);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: t.export.button, exact: true }).click();
    await page.getByText(t.export.headingAll(expected.length), { exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: t.export.json, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{8}-\d{6}\.json$/);
    const rows = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as Array<{
      id: number;
      action: string;
      changes: Record<string, { from: unknown; to: unknown }>;
    }>;
    expect(rows.map((row) => row.id)).toEqual(expected);
    const edit = rows.find((row) => row.id === story.editEventId);
    expect(edit?.changes.name).toEqual({ from: HISTORY_USER.name, to: HISTORY_RENAMED.name });
    // The export is itself recorded.
    const exports = await apiAudit(page, 'filters[action]=audit.export');
    expect(exports.rows.length).toBeGreaterThan(0);
    await context.close();
  });

  it('shows a user’s History with who, when, the door and each field before → after, and opens the event', async () => {
    const { context, page } = await signedInPage(browser, ADMIN, { width: 1280 });
    await page.goto(`/users/${story.userId}`);
    const history = page.getByRole('region', { name: t.history.title });
    await history.getByText(t.actions['user.update'], { exact: true }).waitFor();
    const entries = history.getByRole('listitem');
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(4);
    // Newest first: a refused sign-in, deactivated, edited, created.
    const badges = await history.locator('li > div > span:first-child').allTextContents();
    expect(badges.slice(0, 4)).toEqual([
      t.actions['auth.loginFailed'],
      t.actions['user.deactivate'],
      t.actions['user.update'],
      t.actions['user.create'],
    ]);

    const edit = entries.nth(2);
    const text = (await edit.innerText()).replace(/\s+/g, ' ');
    for (const value of [HISTORY_USER.name, HISTORY_RENAMED.name, HISTORY_USER.email, HISTORY_RENAMED.email])
      expect(text).toContain(value);
    expect(text).toContain(t.via.session);
    expect(text).toContain('127.0.0.1');
    expect(await entries.nth(0).innerText()).toContain(t.history.byNobody);
    const deactivation = (await entries.nth(1).innerText()).replace(/\s+/g, ' ');
    expect(deactivation).toContain(`${t.values.active}`);
    expect(deactivation).toContain(`${t.values.inactive}`);
    await screenshot(page, 'audit-user-history');

    await edit.getByRole('link', { name: new RegExp(`^${t.history.openEvent}`) }).click();
    await page.getByRole('heading', { level: 1, name: t.actions['user.update'], exact: true }).waitFor();
    const changes = page.getByRole('region', { name: t.event.changesTitle });
    await changes.getByText(HISTORY_RENAMED.email, { exact: true }).waitFor();
    expect(page.url()).toContain(`/audit/${story.editEventId}`);
    await context.close();
  });

  it('names a job’s events by the job, linked, and tells what it did in words', async () => {
    const { context, page } = await signedInPage(browser, ADMIN, { width: 1280 });
    // A dry run of deactivating every active user: the administrator is among them, and skipped.
    const { id } = await ensureJobStory(page);
    const name = j.reference(id, await jobTitleOf(page, id));
    expect(name).toMatch(new RegExp(`^Job #${id} · Deactivate [\\d,]+ users? matching Status: Active$`));

    await page.goto('/audit?filters[action]=job.finish');
    const listed = auditTable(page).getByRole('link', { name, exact: true });
    await listed.waitFor();
    expect(await listed.getAttribute('href')).toBe(`/jobs/${id}`);
    await captureViews(page, 'audit-job-list', 700);

    const finish = (await apiAudit(page, 'filters[action]=job.finish')).rows.find((row) => row.target_ids[0] === id);
    expect(finish).toBeDefined();
    await page.goto(`/audit/${finish?.id}`);
    await page.getByRole('heading', { level: 1, name: t.actions['job.finish'], exact: true }).waitFor();
    const targets = page.getByRole('region', { name: t.event.targetsTitle });
    await targets.getByRole('link', { name, exact: true }).waitFor();
    expect(await targets.innerText()).not.toContain(t.event.moreTargetIds(1));
    const details = page.getByRole('region', { name: t.event.contextTitle });
    const text = (await details.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(t.job.dryRun);
    expect(text).toContain(j.statuses.succeeded);
    expect(text).toMatch(/Would change [\d,]+ · would skip 1 · failed 0/);
    expect(text).toContain(j.skipCode('SELF_DEACTIVATION'));
    expect(text).not.toMatch(/[{}"]/);
    await captureViews(page, 'audit-job-event');

    await targets.getByRole('link', { name, exact: true }).click();
    await page.waitForURL(new RegExp(`/jobs/${id}$`));
    await context.close();
  });
});
