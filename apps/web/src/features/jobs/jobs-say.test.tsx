import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { jobOf, jobShow, jobsPage } from '../../test/job-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { watchJob } from './job-watch';

// Jobs say what they are (issue 40, items 3 and 4): titles in words, dry runs listed only when
// asked and never "changed", imports followed in the header like bulk jobs.
const j = en.jobs;

const SELECTION = {
  kind: 'selection' as const,
  query: { q: null, filters: { is_active: true, role_id: [3] } },
  except: 0,
  withheld: 0,
  roles: [{ id: 3, name: 'viewer' }],
  attributes: [],
};
const REAL_TITLE = 'Deactivate 2,461 users matching Roles: viewer, Status: Active';
const IMPORT_TITLE = 'Import people.csv (add and update)';

const real = jobOf({
  id: 9,
  status: 'succeeded',
  progress: { total: 2_461, processed: 2_461, changed: 2_461 },
  target: SELECTION,
});
const dry = jobOf({
  id: 8,
  dryRun: true,
  status: 'succeeded',
  progress: { total: 2_461, processed: 2_461, changed: 2_461 },
  target: SELECTION,
});
const importing = (status: 'running' | 'succeeded') =>
  jobOf({
    id: 30,
    kind: 'import',
    operation: 'upsert',
    active: null,
    status,
    progress: { total: 40, processed: status === 'running' ? 10 : 40, changed: status === 'running' ? 10 : 38 },
    target: { kind: 'file', name: 'people.csv', mode: 'upsert' },
  });

/** The header's question (live jobs, ten at most) told apart from the list page's. */
const isHeaderAsking = (input: unknown) => (input as { perPage?: number }).perPage === 10;
const asksDryRuns = (input: unknown) => (input as { filters?: { dry_run?: boolean } }).filters?.dry_run === true;

describe('jobs that say what they are', { timeout: 30_000 }, () => {
  it('lists real runs by their titles, and dry runs in their place when asked, counted as what they would change', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf([])),
      'jobs.list': (input) => ok(jobsPage(isHeaderAsking(input) ? [] : asksDryRuns(input) ? [dry] : [real])),
    });
    renderApp('/jobs');

    const table = await screen.findByRole('table', { name: j.table.label });
    expect(await within(table).findByRole('link', { name: j.jobName(9, REAL_TITLE) })).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: j.columns.changed })).toBeTruthy();
    expect(within(table).queryByText(j.dryRunTag)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: j.dryRunsOnly, pressed: false }));
    expect(await within(table).findByRole('link', { name: j.jobName(8, REAL_TITLE) })).toBeTruthy();
    expect(within(table).getByText(j.dryRunTag)).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: j.columns.wouldChange })).toBeTruthy();
    expect(within(table).queryByRole('columnheader', { name: j.columns.changed })).toBeNull();
    const asked = api.callsTo('jobs.list').filter((input) => !isHeaderAsking(input));
    expect(asked.at(-1)).toMatchObject({ filters: { dry_run: true } });
    expect(screen.getByRole('button', { name: j.dryRunsOnly, pressed: true })).toBeTruthy();
  });

  it('titles a job’s page by what it did and ran on; a dry run’s figures say what would change', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([])), 'jobs.show': ok(jobShow(dry)) });
    renderApp('/jobs/8');

    expect(await screen.findByRole('heading', { level: 1, name: j.jobName(8, REAL_TITLE) })).toBeTruthy();
    expect(screen.getByText(j.job.wouldChange, { selector: 'dt' })).toBeTruthy();
    expect(screen.queryByText(j.job.changed, { selector: 'dt' })).toBeNull();
  });

  it('follows an import in the header as soon as it is watched, and says when it is done', async () => {
    let live: ReturnType<typeof importing>[] = [];
    let shown = importing('running');
    mockTrpc({
      'auth.me': ok(sessionOf([])),
      'jobs.list': (input) => ok(jobsPage(isHeaderAsking(input) ? live : [])),
      'jobs.show': () => ok(jobShow(shown)),
    });
    renderApp('/account');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('link', { name: j.indicator.one(IMPORT_TITLE) })).toBeNull();

    // The import page watches the job it submitted: the header looks again at once (nothing was
    // moving, so nothing was polling).
    live = [importing('running')];
    act(() => watchJob(30));
    const indicator = await screen.findByRole('link', { name: j.indicator.one(IMPORT_TITLE) });
    expect(indicator.getAttribute('href')).toBe('/jobs/30');
    expect(within(indicator).getByText(IMPORT_TITLE)).toBeTruthy();

    live = [];
    shown = importing('succeeded');
    expect(await screen.findByText(j.finishedToast.succeeded(IMPORT_TITLE), {}, { timeout: 8_000 })).toBeTruthy();
    expect(screen.getByText(j.finishedToast.counts(38, 0))).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: j.indicator.one(IMPORT_TITLE) })).toBeNull());
  });
});
