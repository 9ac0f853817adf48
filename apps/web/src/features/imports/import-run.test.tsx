import { importsMessages } from '../../i18n/imports-messages';
import type { JobShow } from '@app/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { jobOf } from '../../test/job-fixtures';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf, type TrpcReply, type TrpcResolver } from '../../test/trpc-mock';
import {
  chooseFile,
  fileOf,
  importJob,
  jobsById,
  mockUploads,
  CREATE_ONLY_CHOICES,
  showOf,
  useNodeFormData,
} from './import-test-support';

const t = importsMessages;
const u = en.jobUndo;
const CSV = 'name,email\r\nAda,ada@example.com\r\n';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const DRY = importJob();
const runJob = (overrides: Parameters<typeof importJob>[0] = {}) =>
  importJob({ id: 30, dryRun: false, status: 'running', finished_at: null, ...overrides });

/** The page with a file chosen and its dry run (job 21) done: the import button, once offered. */
async function pageReadyToImport(
  shows: Record<number, JobShow>,
  count = 52,
  more: Record<string, TrpcResolver | TrpcReply> = {},
) {
  mockTrpc({
    'auth.me': ok(sessionOf(['users.view', 'users.create'])),
    'imports.new': ok(CREATE_ONLY_CHOICES),
    'jobs.show': jobsById(shows),
    ...more,
  });
  renderApp('/users/import');
  await screen.findByRole('heading', { level: 1, name: t.title });
  chooseFile(fileOf(CSV));
  return screen.findByRole('button', { name: t.run.importN(count) });
}

beforeEach(useNodeFormData);
afterEach(() => vi.unstubAllGlobals());

describe('importing for real', { timeout: 30_000 }, () => {
  it('sends dryRun=false with an Idempotency-Key, the same one when a failed click is retried', async () => {
    const shows: Record<number, JobShow> = { 21: showOf(DRY), 30: showOf(runJob()) };
    const received = mockUploads({ status: 202, body: { job: DRY } }, 'network-error', {
      status: 202,
      body: { job: runJob() },
    });
    const button = await pageReadyToImport(shows);

    fireEvent.click(button);
    expect(await screen.findByText(en.errors.network)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: t.run.importN(52) }));

    await screen.findByRole('progressbar', { name: en.jobs.job.progressLabel });
    expect(received).toHaveLength(3);
    const [dry, first, retry] = received;
    expect(dry?.query.get('dryRun')).toBe('true');
    expect(first?.query.get('dryRun')).toBe('false');
    expect(first?.fileText).toBe(CSV);
    expect(first?.idempotencyKey).toMatch(UUID);
    expect(retry?.idempotencyKey).toBe(first?.idempotencyKey);

    // Live progress, then the result, from the job as it is polled.
    shows[30] = showOf(runJob({ status: 'succeeded', finished_at: '2026-11-26T09:05:00.000Z' }));
    const step = screen.getByRole('region', { name: t.run.title });
    expect(await within(step).findByText(t.run.done)).toBeTruthy();
    expect(screen.getByRole('status', { name: '' }).textContent).toBe(t.run.done);
    expect(screen.getByRole('link', { name: t.run.viewJob }).getAttribute('href')).toBe('/jobs/30');
    expect(screen.getByRole('link', { name: t.run.viewUsers }).getAttribute('href')).toBe('/users');
  });

  it('keeps the import button disabled when the dry run finds nothing to create or update', async () => {
    const nothing = importJob({
      import: { ...DRY.import!, outcomes: { create: 0, update: 0, unchanged: 60, skip: 0, error: 0 } },
    });
    mockUploads({ status: 202, body: { job: nothing } });
    const button = await pageReadyToImport({ 21: showOf(nothing) }, 0);
    expect(button).toHaveProperty('disabled', true);
    expect(screen.getByText(t.run.nothing)).toBeTruthy();
  });

  it('runs the undo’s dry run first, shows what it would remove, put back and leave, then undoes', async () => {
    const done = runJob({
      status: 'succeeded',
      finished_at: '2026-11-26T09:05:00.000Z',
      undo: { of: null, until: '2099-01-01T00:00:00.000Z', by: null },
    });
    const judged = jobOf({
      id: 32,
      kind: 'undo',
      operation: null,
      active: null,
      dryRun: true,
      status: 'succeeded',
      progress: { total: 52, processed: 52, changed: 50, skipped: 2 },
      counts: { CHANGED_SINCE: 1, EMAIL_TAKEN: 1 },
      undo: { of: 30, until: null, by: null, accounts: { removed: 48, restored: 2 } },
    });
    const undoJob = jobOf({ id: 31, kind: 'undo', operation: null, active: null, status: 'queued', undo: null });
    mockUploads({ status: 202, body: { job: DRY } }, { status: 202, body: { job: done } });
    const asked: unknown[] = [];
    const undo = (input: unknown) => {
      asked.push(input);
      return ok({ job: (input as { dryRun: boolean }).dryRun ? judged : undoJob });
    };
    fireEvent.click(
      await pageReadyToImport({ 21: showOf(DRY), 30: showOf(done), 31: showOf(undoJob), 32: showOf(judged) }, 52, {
        'imports.undo': undo,
      }),
    );

    fireEvent.click(await screen.findByRole('button', { name: u.import.button }));
    const dialog = await screen.findByRole('dialog', { name: u.import.title });
    expect(await within(dialog).findByText(u.wouldRemove(48))).toBeTruthy();
    expect(within(dialog).getByText(u.wouldChange(2))).toBeTruthy();
    expect(within(dialog).getByText(u.wouldSkip(2))).toBeTruthy();
    const reasons = within(dialog).getByRole('list', { name: u.reasonsLabel });
    expect(within(reasons).getByText(u.reason(en.jobs.skipCode('CHANGED_SINCE'), 1))).toBeTruthy();
    expect(within(reasons).getByText(u.reason(en.jobs.skipCode('EMAIL_TAKEN'), 1))).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: u.seeWho }).getAttribute('href')).toBe('/jobs/32');
    expect(asked).toEqual([{ id: 30, dryRun: true }]);
    fireEvent.click(within(dialog).getByRole('button', { name: u.import.confirm }));

    const link = await screen.findByRole('link', { name: u.viewUndo });
    expect(link.getAttribute('href')).toBe('/jobs/31');
    expect(asked).toEqual([
      { id: 30, dryRun: true },
      { id: 30, dryRun: false },
    ]);
    expect(screen.getByText(u.import.done)).toBeTruthy();
    expect(screen.queryByRole('button', { name: u.import.button })).toBeNull();
  });

  it('shows the server’s sentence in the confirmation when the import can no longer be undone (409), and goes no further', async () => {
    const done = runJob({
      status: 'succeeded',
      finished_at: '2026-11-26T09:05:00.000Z',
      undo: { of: null, until: '2099-01-01T00:00:00.000Z', by: null },
    });
    const sentence = 'This import can no longer be undone: its undo window closed.';
    mockUploads({ status: 202, body: { job: DRY } }, { status: 202, body: { job: done } });
    fireEvent.click(
      await pageReadyToImport({ 21: showOf(DRY), 30: showOf(done) }, 52, {
        'imports.undo': fail({ message: sentence, code: 'NOT_UNDOABLE', httpStatus: 409 }),
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: u.import.button }));
    const dialog = await screen.findByRole('dialog', { name: u.import.title });

    expect(await within(dialog).findByText(sentence)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: u.import.confirm })).toHaveProperty('disabled', true);
  });

  it('offers no undo once the window has passed', async () => {
    const done = runJob({
      status: 'succeeded',
      finished_at: '2026-11-26T09:05:00.000Z',
      undo: { of: null, until: '2020-01-01T00:00:00.000Z', by: null },
    });
    mockUploads({ status: 202, body: { job: DRY } }, { status: 202, body: { job: done } });
    fireEvent.click(await pageReadyToImport({ 21: showOf(DRY), 30: showOf(done) }));
    await within(await screen.findByRole('region', { name: t.run.title })).findByText(t.run.done);
    expect(screen.queryByRole('button', { name: u.import.button })).toBeNull();
  });
});
