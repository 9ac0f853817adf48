import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { jobOf, jobShow, jobsPage } from '../../test/job-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const j = en.jobs;

const JOBS = [
  jobOf({
    id: 9,
    status: 'running',
    progress: { total: 312_480, processed: 120_000, changed: 119_990, skipped: 10 },
    actor_id: 4,
    submitted_by: { id: 4, name: 'Grace Hopper' },
  }),
  jobOf({
    id: 8,
    operation: 'delete',
    active: null,
    status: 'succeeded',
    progress: { total: 20, processed: 20, changed: 20 },
  }),
  jobOf({
    id: 6,
    dryRun: true,
    status: 'succeeded',
    progress: { total: 5, processed: 5, changed: 5 },
    actor_id: 12,
    submitted_by: null,
  }),
];

/** The header's question (live jobs, ten at most) told apart from the list page's. */
const isHeaderAsking = (input: unknown) => (input as { perPage?: number }).perPage === 10;

describe('the jobs list and the header indicator', { timeout: 30_000 }, () => {
  it('lists the caller’s jobs with status and progress, filters and searches them, and is in the navigation', async () => {
    const api = mockTrpc({
      // A viewer without users.view still sees their own jobs.
      'auth.me': ok(sessionOf([])),
      'jobs.list': (input) => ok(jobsPage(isHeaderAsking(input) ? [] : JOBS)),
    });
    renderApp('/jobs');

    const table = await screen.findByRole('table', { name: j.table.label });
    expect(await within(table).findByRole('link', { name: j.jobName(9, j.operations.deactivate) })).toBeTruthy();
    expect(within(table).getByRole('link', { name: j.jobName(8, j.operations.delete) })).toBeTruthy();
    expect(within(table).getByText(j.progressOf(120_000, 312_480))).toBeTruthy();
    expect(within(table).getByText(j.dryRunTag)).toBeTruthy();
    expect(within(table).getAllByText(j.statuses.succeeded)).toHaveLength(2);
    // Each row says whose job it is; a submitter erased since is told by id.
    expect(within(table).getByRole('columnheader', { name: j.columns.submitted_by })).toBeTruthy();
    const column = within(table)
      .getAllByRole('columnheader')
      .findIndex((header) => header.textContent === j.columns.submitted_by);
    expect(column).toBeGreaterThan(0);
    const submitterOf = (id: number) =>
      within(table)
        .getByRole('link', { name: new RegExp(`#${id}$`) })
        .closest('tr')?.children[column]?.textContent;
    expect(submitterOf(9)).toBe('Grace Hopper');
    expect(submitterOf(8)).toBe('Ada Admin');
    expect(submitterOf(6)).toBe(en.common.erasedUser(12));
    expect(screen.getAllByRole('link', { name: j.nav }).length).toBeGreaterThan(0);

    fireEvent.click(screen.getByRole('button', { name: j.statuses.failed }));
    await screen.findByRole('button', { name: j.statuses.failed, pressed: true });
    const asked = api.callsTo('jobs.list').filter((input) => !isHeaderAsking(input));
    expect(asked.at(-1)).toMatchObject({ filters: { status: ['failed'] } });

    // The search goes to the server as q (it matches a job's kind, operation and status).
    fireEvent.change(screen.getByRole('searchbox', { name: j.search.label }), { target: { value: 'delete' } });
    await waitFor(() =>
      expect(
        api
          .callsTo('jobs.list')
          .filter((input) => !isHeaderAsking(input))
          .at(-1),
      ).toMatchObject({ q: 'delete' }),
    );
  });

  it('shows running jobs in the header on any page, and a toast when one finishes', async () => {
    const running = jobOf({ id: 12, status: 'running', progress: { total: 15_000, processed: 3_000 } });
    let live = [running];
    mockTrpc({
      'auth.me': ok(sessionOf([])),
      'jobs.list': (input) => ok(jobsPage(isHeaderAsking(input) ? live : [])),
      'jobs.show': ok(
        jobShow(
          jobOf({
            id: 12,
            status: 'succeeded',
            progress: { total: 15_000, processed: 15_000, changed: 14_990, skipped: 10 },
          }),
        ),
      ),
    });
    renderApp('/account');

    // One job moving is named by its title.
    const indicator = await screen.findByRole('link', { name: j.indicator.one(j.operations.deactivate) });
    expect(indicator.getAttribute('href')).toBe('/jobs/12');

    live = [];
    expect(
      await screen.findByText(j.finishedToast.succeeded(j.operations.deactivate), {}, { timeout: 8_000 }),
    ).toBeTruthy();
    expect(screen.getByText(j.finishedToast.counts(14_990, 10))).toBeTruthy();
    // Elsewhere than the job's page, the toast leads there.
    expect(screen.getByRole('button', { name: j.finishedToast.view })).toBeTruthy();
    expect(screen.queryByRole('link', { name: j.indicator.one(j.operations.deactivate) })).toBeNull();
  });
});
