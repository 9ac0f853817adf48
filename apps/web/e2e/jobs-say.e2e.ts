import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createUserViaApi, en, signedInPage, usersTable, waitForRows, waitForToast } from './support/app';
import { browserMissing, captureViews, launch } from './support/browser';
import { ADMIN } from './support/env';
import { jobTitleOf, pauseWebhooks } from './support/jobs';

// Jobs say what they are (issue 40, items 3 and 4): a bulk change's dry run and its real run,
// then /jobs — the real run named by what it did and the users it ran on, the dry run listed
// only when asked for, counted as what it would change.
const t = en.usersList;
const j = en.jobs;

/** More than a page of the users list (10): only "all matching" makes a job of them. */
const COHORT = 12;
const WORD = `Sayjob${process.pid}`;

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const jobIdOf = (url: string) => Number(new URL(url).pathname.split('/').pop());

describe.skipIf(browserMissing())('jobs that say what they are', () => {
  it('names a bulk job by what it did and on whom, and lists its dry run only when asked', async () => {
    const { context, page } = await signedInPage(browser, ADMIN, { width: 1280 });
    const resumeWebhooks = await pauseWebhooks(page);
    onTestFinished(async () => {
      await resumeWebhooks();
      await context.close();
    });
    for (let i = 1; i <= COHORT; i++) {
      await createUserViaApi(page, { name: `${WORD} Person ${i}`, email: `${WORD.toLowerCase()}.${i}@example.com` });
    }

    // The dry run (the dialog's count), then the real run.
    await page.goto(`/users?q=${WORD}&filters[is_active]=active`);
    await waitForRows(page);
    await usersTable(page).getByRole('checkbox', { name: t.table.selectPage, exact: true }).click();
    const bar = page.getByRole('region', { name: t.selection.label, exact: true });
    await bar.getByRole('button', { name: t.selection.selectAllMatching(COHORT), exact: true }).click();
    await bar.getByRole('button', { name: t.bulk.deactivate, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t.bulk.titleAll(t.bulk.deactivate, COHORT, true) });
    await dialog.getByText(j.outcome.wouldChange(COHORT), { exact: true }).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: t.bulk.confirmAll(t.bulk.deactivate, COHORT), exact: true }).click();
    await page.waitForURL(/\/jobs\/\d+$/);
    const realId = jobIdOf(page.url());
    const title = await jobTitleOf(page, realId);
    expect(title).toBe(`Deactivate 12 users matching Search: ${WORD}, Status: Active`);
    await page.getByRole('heading', { level: 1, name: j.jobName(realId, title), exact: true }).waitFor();
    await waitForToast(page, j.finishedToast.succeeded(title), 30_000);
    await page.getByText(j.statuses.succeeded, { exact: true }).first().waitFor();
    await captureViews(page, 'job-titled');

    // /jobs: the real run by its title; the dry run is not there.
    const dry = await page.request.get('/api/jobs?filters[dry_run]=true&perPage=5');
    const dryRow = (
      (await dry.json()) as { rows: Array<{ id: number; target: { query?: { q: string | null } } }> }
    ).rows.find((row) => row.target.query?.q === WORD);
    if (!dryRow) throw new Error('the dialog’s dry run is not among the dry runs');
    await page.goto('/jobs');
    const table = page.getByRole('table', { name: j.table.label, exact: true });
    await table.getByRole('link', { name: j.jobName(realId, title), exact: true }).waitFor();
    expect(await table.locator(`a[href="/jobs/${dryRow.id}"]`).count()).toBe(0);
    await table.getByRole('columnheader', { name: j.columns.changed, exact: true }).waitFor();
    await captureViews(page, 'jobs-real-runs');

    // Asked for, the dry runs take the real runs' place, counted as what they would change.
    await page.getByRole('button', { name: j.dryRunsOnly, exact: true }).click();
    await table
      .getByRole('link', { name: j.jobName(dryRow.id, await jobTitleOf(page, dryRow.id)), exact: true })
      .waitFor();
    await table.getByRole('columnheader', { name: j.columns.wouldChange, exact: true }).waitFor();
    expect(await table.locator(`a[href="/jobs/${realId}"]`).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('filters[dry_run]')).toBe('true');
    await captureViews(page, 'jobs-dry-runs');
  });
});
