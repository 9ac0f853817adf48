import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { jobOf, jobShow } from '../../test/job-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { watchJob } from './job-watch';

const j = en.jobs;

/** What the job's Details say for `term`. */
const detail = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('a job’s page', { timeout: 30_000 }, () => {
  it('says who submitted the job, and lists the users it skipped per reason with examples', async () => {
    const job = jobOf({
      id: 5,
      dryRun: true,
      status: 'succeeded',
      progress: { total: 30, processed: 30, changed: 4, skipped: 26 },
      counts: { LAST_ADMIN: 1, OUTRANKED: 25 },
      finished_at: '2026-11-26T09:02:00.000Z',
      actor_id: 4,
      submitted_by: { id: 4, name: 'Grace Hopper' },
    });
    mockTrpc({
      'auth.me': ok(sessionOf(['jobs.view'])),
      'jobs.show': ok(
        jobShow(job, {
          LAST_ADMIN: [{ id: 2, email: 'ada@example.com', message: 'This would leave no active administrator.' }],
          OUTRANKED: [{ id: 3, email: 'root@example.com', message: 'Root holds permissions you lack.' }],
        }),
      ),
    });
    renderApp('/jobs/5');

    expect(await screen.findByRole('heading', { level: 1, name: j.jobName(5, j.operations.deactivate) })).toBeTruthy();
    expect(detail(j.job.submittedBy)).toBe('Grace Hopper');

    const outranked = screen.getByText(j.skipCode('OUTRANKED')).closest('li') as HTMLElement;
    expect(within(outranked).getByText('25')).toBeTruthy();
    expect(within(outranked).getByText('root@example.com')).toBeTruthy();
    // The server sends the first examples only; the rest are counted, and the report has them.
    expect(within(outranked).getByText(j.outcome.moreOfCode(24))).toBeTruthy();
    const lastAdmin = screen.getByText(j.skipCode('LAST_ADMIN')).closest('li') as HTMLElement;
    expect(within(lastAdmin).getByText('This would leave no active administrator.')).toBeTruthy();
    expect(within(lastAdmin).queryByText(/more$/)).toBeNull();
  });

  it("counts an import's undo by what it did to the accounts: moved to the trash, put back, left", async () => {
    const undo = jobOf({
      id: 41,
      kind: 'undo',
      operation: null,
      active: null,
      status: 'succeeded',
      progress: { total: 5, processed: 5, changed: 4, skipped: 1 },
      counts: { CHANGED_SINCE: 1 },
      finished_at: '2026-11-26T09:02:00.000Z',
      undo: { of: 40, until: null, by: null, accounts: { removed: 3, restored: 1 } },
    });
    mockTrpc({ 'auth.me': ok(sessionOf(['jobs.view'])), 'jobs.show': ok(jobShow(undo)) });
    renderApp('/jobs/41');

    await screen.findByRole('heading', { level: 1 });
    expect(detail(j.job.removed)).toBe('3');
    expect(detail(j.job.restored)).toBe('1');
    expect(detail(j.job.leftAlone)).toBe('1');
    expect(screen.queryByText(j.job.changed, { selector: 'dt' })).toBeNull();
  });

  it('says the system submitted a job from the command line', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['jobs.view'])),
      'jobs.show': ok(jobShow(jobOf({ id: 6, status: 'queued', actor_id: null, submitted_by: null }))),
    });
    renderApp('/jobs/6');
    await screen.findByRole('heading', { level: 1, name: j.jobName(6, j.operations.deactivate) });
    expect(detail(j.job.submittedBy)).toBe(en.common.system);
  });

  it('offers Cancel as the server decides, with its reason when the caller may not stop someone else’s job', async () => {
    const running = jobOf({ id: 8, operation: 'delete', status: 'running', actor_id: 4 });
    const refusal = 'You need the users.delete permission to cancel this job.';
    mockTrpc({
      'auth.me': ok(sessionOf(['jobs.view'])),
      'jobs.show': ok({
        ...jobShow(running),
        item: {
          ...jobShow(running).item,
          actions: { cancel: { allowed: false, code: 'FORBIDDEN', message: refusal } },
        },
      }),
    });
    renderApp('/jobs/8');
    const cancel = await screen.findByRole('button', { name: j.job.cancel });
    expect(cancel.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText(refusal)).toBeTruthy();
  });

  it('drops Cancel once the job has ended, and its finish toast leaves out "View" (this is the page it opens)', async () => {
    let shown = jobOf({ id: 9, status: 'running', progress: { total: 40, processed: 10 } });
    mockTrpc({ 'auth.me': ok(sessionOf([])), 'jobs.show': () => ok(jobShow(shown)) });
    watchJob(9, false);
    renderApp('/jobs/9');
    expect(await screen.findByRole('button', { name: j.job.cancel })).toBeTruthy();

    shown = jobOf({ id: 9, status: 'succeeded', progress: { total: 40, processed: 40, changed: 40 } });
    expect(
      await screen.findByText(j.finishedToast.succeeded(j.operations.deactivate), {}, { timeout: 8_000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: j.finishedToast.view })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('button', { name: j.job.cancel })).toBeNull());
    expect(screen.queryByRole('button', { name: j.job.cancelling })).toBeNull();
  });
});
