import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { jobOf, jobShow } from '../../test/job-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const u = en.jobUndo;
const until = '2099-01-01T00:00:00.000Z';

describe('undoing a job from its page', { timeout: 30_000 }, () => {
  it('runs a dry run first, shows what it would do, and only then lets the undo go', async () => {
    const job = jobOf({
      id: 7,
      status: 'cancelled',
      progress: { total: 40, processed: 12, changed: 12, skipped: 0 },
      finished_at: '2026-11-26T09:02:00.000Z',
      undo: { of: null, until, by: null },
    });
    const dry = jobOf({
      id: 8,
      kind: 'undo',
      dryRun: true,
      status: 'succeeded',
      progress: { total: 12, processed: 12, changed: 11, skipped: 1 },
      counts: { CHANGED_SINCE: 1 },
    });
    const asked: unknown[] = [];
    mockTrpc({
      'auth.me': ok(sessionOf(['jobs.view', 'users.setActive'])),
      'jobs.show': (input) => ok(jobShow((input as { id: number }).id === 8 ? dry : job)),
      'imports.undo': (input) => {
        asked.push(input);
        const dryRun = (input as { dryRun: boolean }).dryRun;
        return ok({ job: dryRun ? dry : jobOf({ id: 9, kind: 'undo', status: 'queued' }) });
      },
    });
    renderApp('/jobs/7');
    fireEvent.click(await screen.findByRole('button', { name: u.button }));
    const dialog = await screen.findByRole('dialog', { name: u.title });
    expect(await within(dialog).findByText(u.wouldChange(11))).toBeTruthy();
    expect(within(dialog).getByText(u.wouldSkip(1))).toBeTruthy();
    const reasons = within(dialog).getByRole('list', { name: u.reasonsLabel });
    expect(within(reasons).getByText(u.reason(en.jobs.skipCode('CHANGED_SINCE'), 1))).toBeTruthy();
    // A bulk job's undo only puts back: nothing is said about the trash.
    expect(within(dialog).queryByText(/trash/)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: u.confirm }));
    expect(await screen.findByRole('link', { name: u.viewUndo })).toBeTruthy();
    expect(asked).toEqual([
      { id: 7, dryRun: true },
      { id: 7, dryRun: false },
    ]);
  });

  it('offers nothing once the job has been undone but a link to the undo', async () => {
    const job = jobOf({ id: 7, status: 'succeeded', undo: { of: null, until, by: 12 } });
    mockTrpc({ 'auth.me': ok(sessionOf(['jobs.view'])), 'jobs.show': ok(jobShow(job)) });
    renderApp('/jobs/7');
    expect(await screen.findByRole('link', { name: u.viewUndo })).toBeTruthy();
    expect(screen.queryByRole('button', { name: u.button })).toBeNull();
  });

  it('undoes an import in its own words, its dry run telling removals from put-backs', async () => {
    const job = jobOf({
      id: 40,
      kind: 'import',
      operation: 'upsert',
      active: null,
      status: 'succeeded',
      progress: { total: 5, processed: 5, changed: 5, skipped: 0 },
      finished_at: '2026-11-26T09:02:00.000Z',
      undo: { of: null, until, by: null },
    });
    const dry = jobOf({
      id: 41,
      kind: 'undo',
      operation: null,
      active: null,
      dryRun: true,
      status: 'succeeded',
      progress: { total: 5, processed: 5, changed: 4, skipped: 1 },
      counts: { LAST_ADMIN: 1 },
      undo: { of: 40, until: null, by: null, accounts: { removed: 3, restored: 1 } },
    });
    mockTrpc({
      'auth.me': ok(sessionOf(['jobs.view', 'users.delete', 'users.update'])),
      'jobs.show': (input) => ok(jobShow((input as { id: number }).id === 41 ? dry : job)),
      'imports.undo': ok({ job: dry }),
    });
    renderApp('/jobs/40');
    fireEvent.click(await screen.findByRole('button', { name: u.import.button }));
    const dialog = await screen.findByRole('dialog', { name: u.import.title });
    expect(await within(dialog).findByText(u.wouldRemove(3))).toBeTruthy();
    expect(within(dialog).getByText(u.wouldChange(1))).toBeTruthy();
    expect(within(dialog).getByText(u.reason(en.jobs.skipCode('LAST_ADMIN'), 1))).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: u.import.confirm })).toHaveProperty('disabled', false);
  });

  it('lets nothing go when the dry run finds nothing to undo', async () => {
    const job = jobOf({ id: 7, status: 'succeeded', undo: { of: null, until, by: null } });
    const dry = jobOf({
      id: 8,
      kind: 'undo',
      dryRun: true,
      status: 'succeeded',
      progress: { total: 2, processed: 2, changed: 0, skipped: 2 },
      counts: { CHANGED_SINCE: 2 },
    });
    mockTrpc({
      'auth.me': ok(sessionOf(['jobs.view', 'users.setActive'])),
      'jobs.show': (input) => ok(jobShow((input as { id: number }).id === 8 ? dry : job)),
      'imports.undo': ok({ job: dry }),
    });
    renderApp('/jobs/7');
    fireEvent.click(await screen.findByRole('button', { name: u.button }));
    const dialog = await screen.findByRole('dialog', { name: u.title });
    expect(await within(dialog).findByText(u.nothing)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: u.confirm })).toHaveProperty('disabled', true);
  });
});
