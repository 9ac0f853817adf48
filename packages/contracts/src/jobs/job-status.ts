// A module without schemas: the SPA's header and lists ask whether a job is over on every page,
// and must not load the jobs' whole contract (its schemas and list query) for it.

export const JOB_STATUSES = ['queued', 'running', 'cancelling', 'cancelled', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job in one of these states is over: it will not move again and cannot be cancelled. */
export const FINISHED_JOB_STATUSES = ['cancelled', 'succeeded', 'failed'] as const satisfies readonly JobStatus[];
export const isFinishedJob = (status: JobStatus): boolean =>
  (FINISHED_JOB_STATUSES as readonly JobStatus[]).includes(status);
