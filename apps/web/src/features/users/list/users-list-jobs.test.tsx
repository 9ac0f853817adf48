import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { jobOf, jobShow } from '../../../test/job-fixtures';
import { renderApp } from '../../../test/render-app';
import { ok } from '../../../test/trpc-mock';
import { mockUsersApi } from './users-list.test-support';

const t = en.usersList;
const j = en.jobs;

const DRY_RUN = 5;
const REAL = 7;

/** The server's side of one query-scoped deactivation: a dry run that finishes on its second look, then the real job. */
function jobsApi() {
  let dryLooks = 0;
  let realStatus: 'running' | 'cancelling' | 'cancelled' = 'running';
  const dryDone = jobOf({
    id: DRY_RUN,
    dryRun: true,
    status: 'succeeded',
    progress: { total: 42, processed: 42, changed: 40, skipped: 2 },
    counts: { LAST_ADMIN: 1, SELF_DEACTIVATION: 1 },
    finished_at: '2026-11-26T09:00:03.000Z',
  });
  return {
    cancel: () => {
      realStatus = 'cancelling';
      return ok({ job: jobOf({ id: REAL, status: 'cancelling' }) });
    },
    finishCancel: () => {
      realStatus = 'cancelled';
    },
    bulk: (input: unknown) => {
      const dryRun = (input as { dryRun: boolean }).dryRun;
      return ok({ job: jobOf({ id: dryRun ? DRY_RUN : REAL, dryRun, status: 'queued', progress: { total: 41 } }) });
    },
    show: (input: unknown) => {
      const { id } = input as { id: number };
      if (id === DRY_RUN) {
        dryLooks += 1;
        return ok(
          dryLooks === 1
            ? jobShow(jobOf({ id, dryRun: true, progress: { total: 42, processed: 20, changed: 19, skipped: 1 } }))
            : jobShow(dryDone, {
                LAST_ADMIN: [
                  { id: 1, email: 'admin@example.com', message: 'This would leave no active administrator.' },
                ],
                SELF_DEACTIVATION: [{ id: 1, email: 'admin@example.com', message: 'You cannot deactivate yourself.' }],
              }),
        );
      }
      return ok(
        jobShow(
          jobOf({
            id,
            status: realStatus,
            progress: { total: 41, processed: 20, changed: 19, skipped: 1 },
            counts: { LAST_ADMIN: 1 },
            ...(realStatus === 'cancelled' ? { finished_at: '2026-11-26T09:01:00.000Z' } : {}),
          }),
        ),
      );
    },
  };
}

describe('acting on every matching user through a background job', { timeout: 30_000 }, () => {
  it('runs the dry-run job, shows its counts and examples, then starts the real job and follows it', async () => {
    const server = jobsApi();
    const api = mockUsersApi('all', 42, {
      'users.bulk': server.bulk,
      'jobs.show': server.show,
      'jobs.cancel': server.cancel,
    });
    renderApp('/users?filters[is_active]=active');
    const table = await screen.findByRole('table', { name: t.table.label });
    await within(table).findAllByRole('link');

    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectPage }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.selection.selectAllMatching(42) }));
    await within(bar).findByText(t.selection.allMatching(42));
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 41') }));
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.deactivate }));

    const dialog = await screen.findByRole('dialog', { name: t.bulk.titleAll(t.bulk.deactivate, 42, true) });
    // The dry run's progress first, then what it found; the confirm waits for it.
    expect(await within(dialog).findByRole('progressbar', { name: j.job.progressLabel })).toBeTruthy();
    expect(within(dialog).getByText(j.progressOf(20, 42))).toBeTruthy();
    expect(await within(dialog).findByText(j.outcome.wouldChange(40))).toBeTruthy();
    expect(within(dialog).getByText(j.skipCode('LAST_ADMIN'))).toBeTruthy();
    expect(within(dialog).getByText('This would leave no active administrator.')).toBeTruthy();
    expect(within(dialog).getByText('You cannot deactivate yourself.')).toBeTruthy();
    expect(api.callsTo('users.bulk')).toEqual([
      {
        operation: 'setActive',
        active: false,
        selection: { query: { filters: { is_active: 'active' } }, except: [41] },
        dryRun: true,
      },
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: t.bulk.confirmAll(t.bulk.deactivate, 40) }));

    // The job's page: live progress, Cancel, the report.
    expect(await screen.findByRole('heading', { name: j.jobName(REAL, j.operations.deactivate) })).toBeTruthy();
    expect(api.callsTo('users.bulk')[1]).toMatchObject({ dryRun: false, selection: { except: [41] } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText(j.progressOf(20, 41))).toBeTruthy();
    const csv = screen.getByRole('link', { name: j.job.reportCsv });
    expect(new URL(csv.getAttribute('href') ?? '').pathname + new URL(csv.getAttribute('href') ?? '').search).toBe(
      `/api/jobs/${REAL}/report?format=csv`,
    );
    expect(screen.getByRole('link', { name: j.job.reportJson }).getAttribute('href')).toContain('format=json');

    const cancel = screen.getByRole('button', { name: j.job.cancel });
    fireEvent.click(cancel);
    expect(await screen.findByText(j.job.cancelled)).toBeTruthy();
    expect(api.callsTo('jobs.cancel')).toEqual([{ id: REAL }]);
    server.finishCancel();
    await screen.findByText(j.statuses.cancelled, {}, { timeout: 6_000 });
    // Over: nothing is left to cancel.
    expect(screen.queryByRole('button', { name: j.job.cancel })).toBeNull();
  });

  it('says so when the dry run fails, and offers to check again', async () => {
    const failed = jobOf({ id: DRY_RUN, dryRun: true, status: 'failed', error: 'The database went away.' });
    mockUsersApi('all', 42, {
      'users.bulk': ok({ job: jobOf({ id: DRY_RUN, dryRun: true, status: 'queued' }) }),
      'jobs.show': ok(jobShow(failed)),
    });
    renderApp('/users');
    const table = await screen.findByRole('table', { name: t.table.label });
    await within(table).findAllByRole('link');
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectPage }));
    fireEvent.click(await screen.findByRole('button', { name: t.selection.selectAllMatching(42) }));
    fireEvent.click(
      within(screen.getByRole('region', { name: t.selection.label })).getByRole('button', { name: t.bulk.deactivate }),
    );

    const dialog = await screen.findByRole('dialog');
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('The database went away.')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: t.bulk.retry })).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: t.bulk.confirmMatching(t.bulk.deactivate, 42, true) });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
  });
});
