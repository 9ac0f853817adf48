import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { en, signedInPage, usersTable, waitForRows, waitForToast } from './support/app';
import { browserMissing, captureViews, launch, screenshot, seriousA11yViolations } from './support/browser';
import { ADMIN } from './support/env';
import {
  apiJob,
  BULK_YEAR,
  deleteBulkUsers,
  finishedJob,
  insertBulkUsers,
  jobTitleOf,
  pauseWebhooks,
} from './support/jobs';

const t = en.usersList;
const j = en.jobs;

// More than one action on ids may take (10 000): only a query-scoped job can act on them all.
const BULK_USERS = 10_500;
const RANGE = `filters[created_between][from]=${BULK_YEAR}-01-01&filters[created_between][to]=${BULK_YEAR}-12-31`;

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
  insertBulkUsers(BULK_USERS);
});
afterAll(async () => {
  if (browserMissing()) return;
  deleteBulkUsers();
  await browser?.close();
});

/** A CSV's lines (its fields quoted; the report's hold no line breaks). */
const lines = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);

describe.skipIf(browserMissing())('a background job over every matching user', () => {
  it('deactivates 10,500 matching users with a dry run, live progress, cancel and the report', async () => {
    const { context, page } = await signedInPage(browser, ADMIN, { width: 1280 });
    const resumeWebhooks = await pauseWebhooks(page);
    // Whatever happens, the endpoints are switched back on before the session ends.
    onTestFinished(async () => {
      await resumeWebhooks();
      await context.close();
    });
    await page.goto(`/users?${RANGE}`);
    await waitForRows(page);

    // Past 10 000 a filtered list stops counting: "10,000+", and all of them can still be selected.
    await usersTable(page).getByRole('checkbox', { name: t.table.selectPage, exact: true }).click();
    const bar = page.getByRole('region', { name: t.selection.label, exact: true });
    await bar.getByRole('button', { name: t.selection.selectAllMatching(10_000, false), exact: true }).click();
    await bar.getByText(t.selection.allMatching(10_000, false), { exact: true }).waitFor();
    await bar.getByRole('button', { name: t.bulk.deactivate, exact: true }).click();

    const dialog = page.getByRole('dialog', { name: t.bulk.titleAll(t.bulk.deactivate, 10_000, false) });
    await dialog.waitFor();
    // The dry run's own bar while it judges (caught when the machine is not too quick for it).
    const checking = dialog.getByRole('progressbar', { name: j.job.progressLabel });
    if (await checking.isVisible()) await screenshot(page, 'job-dialog-checking-1280');
    await dialog.getByText(j.outcome.wouldChange(BULK_USERS), { exact: true }).waitFor({ timeout: 60_000 });
    await captureViews(page, 'job-dialog', 800);

    await dialog.getByRole('button', { name: t.bulk.confirmAll(t.bulk.deactivate, BULK_USERS), exact: true }).click();
    await page.waitForURL(/\/jobs\/\d+$/);
    const jobId = Number(new URL(page.url()).pathname.split('/').pop());
    const title = await jobTitleOf(page, jobId);
    expect(title).toMatch(/^Deactivate 10,500 users matching Created: /);
    await page.getByRole('heading', { level: 1, name: j.jobName(jobId, title), exact: true }).waitFor();

    // Live: the header shows the job from this (or any) page, and the bar moves.
    await page.getByRole('link', { name: j.indicator.one(title), exact: true }).waitFor();
    const progress = page.getByRole('progressbar', { name: j.job.progressLabel });
    await expect
      .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000, interval: 50 })
      .toBeGreaterThan(0);
    expect(Number(await progress.getAttribute('aria-valuemax'))).toBe(BULK_USERS);
    // Two readings apart give the rate and the time left (a job of 10,500 in chunks of 10 takes
    // several seconds here: there is time to see them, and to cancel well before the end).
    await page.getByText(/^[\d,]+ users\/s$/).waitFor({ timeout: 15_000 });
    await page.getByText(/^About \d+ (s|min)$/).waitFor();
    await screenshot(page, 'job-running-1280');
    const violations = await seriousA11yViolations(page);
    expect(violations, violations.map((v) => `${v.id}: ${v.help}\n${v.examples.join('\n')}`).join('\n')).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'job-running-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: j.job.cancel, exact: true }).click();
    const job = await finishedJob(page, jobId);
    process.stdout.write(`jobs.e2e: cancelled after ${job.progress.processed} of ${BULK_USERS} users\n`);
    expect(job.status).toBe('cancelled');
    expect(job.progress.changed).toBeGreaterThan(0);
    expect(job.progress.processed).toBeLessThan(BULK_USERS);
    const toast = await waitForToast(page, j.finishedToast.cancelled(title), 15_000);
    // On the job's own page the toast does not offer to open it, and an ended job has no Cancel.
    expect(await toast.getByRole('button', { name: j.finishedToast.view, exact: true }).count()).toBe(0);
    await page.getByText(j.statuses.cancelled, { exact: true }).first().waitFor();
    await page.getByRole('button', { name: j.job.cancel, exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: j.indicator.one(title), exact: true }).waitFor({ state: 'hidden' });

    // The report: every user the job touched, as a file — each one it changed with the field
    // before and after, then those it skipped or failed on.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: j.job.reportCsv, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^job-${jobId}-report.*\\.csv$`));
    const [header, ...rows] = lines(fs.readFileSync(await download.path()));
    expect(header).toBe('"id","email","outcome","code","message","before","after"');
    expect(rows).toHaveLength(job.progress.changed + job.progress.skipped + job.progress.failed);
    expect(rows.filter((r) => r.includes('"changed","CHANGED","Deactivated."'))).toHaveLength(job.progress.changed);

    // What it changed is what the users list shows.
    const inactiveCount = async () => {
      const inactive = await page.request.get(`/api/users?${RANGE}&filters[is_active]=inactive&perPage=1`);
      return ((await inactive.json()) as { meta: { total: number } }).meta.total;
    };
    expect(await inactiveCount()).toBe(job.progress.changed);
    expect((await apiJob(page, jobId)).item.status).toBe('cancelled');

    // A cancelled job can be undone: a dry run first, whose counts the confirmation shows.
    const u = en.jobUndo;
    await page.getByRole('button', { name: u.button, exact: true }).click();
    const confirm = page.getByRole('dialog', { name: u.title });
    await confirm.getByText(u.wouldChange(job.progress.changed), { exact: true }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'job-undo-confirm-1280');
    const dialogViolations = await seriousA11yViolations(page);
    expect(dialogViolations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await confirm.getByRole('button', { name: u.confirm, exact: true }).click();
    await waitForToast(page, u.started);
    await page.getByRole('link', { name: u.viewUndo, exact: true }).click();
    const undoId = Number(/\/jobs\/(\d+)/.exec(page.url())?.[1]);
    const undone = await finishedJob(page, undoId);
    expect(undone).toMatchObject({ kind: 'undo', status: 'succeeded', progress: { changed: job.progress.changed } });
    expect(await inactiveCount()).toBe(0);
    await page.getByText(j.statuses.succeeded, { exact: true }).first().waitFor();
    await screenshot(page, 'job-undone-1280');
    // A dry run, a job, its report, an undo's dry run and the undo, each waited for: 40–60 s on a
    // slower 2-core machine with another file's browser beside it, past the 60 s default.
  }, 150_000);
});
