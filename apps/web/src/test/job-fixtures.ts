import {
  isFinishedJob,
  type JobProgress,
  type JobsListResult,
  type JobShow,
  type JobWithSubmitter,
} from '@app/contracts';

/** A bulk deactivation job; override what the test is about. */
export function jobOf(
  overrides: Partial<Omit<JobWithSubmitter, 'progress'>> & { progress?: Partial<JobProgress> } = {},
): JobWithSubmitter {
  const { progress, ...rest } = overrides;
  return {
    id: 7,
    kind: 'bulk',
    operation: 'setActive',
    active: false,
    role: null,
    attribute: null,
    dryRun: false,
    status: 'running',
    progress: { total: 312_480, processed: 0, changed: 0, skipped: 0, failed: 0, ...progress },
    counts: {},
    error: null,
    created_at: '2026-11-26T09:00:00.000Z',
    started_at: '2026-11-26T09:00:01.000Z',
    finished_at: null,
    actor_id: 1,
    submitted_by: { id: 1, name: 'Ada Admin' },
    via: { kind: 'session', name: null },
    import: null,
    undo: null,
    target: null,
    ...rest,
  };
}

/** The actions the server offers a submitter on its job: cancel until it is over. */
export const ownJobActions = (job: JobWithSubmitter): JobShow['item']['actions'] => ({
  cancel: isFinishedJob(job.status)
    ? { allowed: false, code: 'JOB_FINISHED', message: `The job has already finished (${job.status}).` }
    : { allowed: true },
});

/** A `jobs.show` answer. */
export const jobShow = (job: JobWithSubmitter, examples: JobShow['examples'] = {}): JobShow => ({
  item: { ...job, actions: ownJobActions(job) },
  examples,
  problems: [],
  people: { allowed: true },
});

/** A one-page `jobs.list` answer. */
export const jobsPage = (rows: JobWithSubmitter[]): JobsListResult => ({
  rows,
  meta: { page: 1, perPage: 25, total: rows.length, totalExact: true, pageCount: rows.length > 0 ? 1 : 0 },
});
