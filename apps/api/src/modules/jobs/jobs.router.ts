import {
  JobAnswerSchema,
  JobIdSchema,
  JobReportInputSchema,
  JobShowSchema,
  jobsListQuery,
  JobsListResultSchema,
} from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { protectedProcedure, restDownload } from '../../trpc/procedures.js';
import { cancelJob } from './cancel.handler.js';
import { listJobs } from './list.handler.js';
import { jobReport } from './report.handler.js';
import { showJob } from './show.handler.js';

/** Background jobs: one's own for any signed-in caller, everyone's with jobs.view. */
export const jobsRouter = router({
  list: protectedProcedure
    .meta(rest('GET', '/jobs', { summary: 'Your background jobs (everyone’s with jobs.view), newest first' }))
    .input(jobsListQuery.input)
    .output(JobsListResultSchema)
    .query(listJobs),
  show: protectedProcedure
    .meta(
      rest('GET', '/jobs/{id}', { summary: 'Where a job stands: status, progress, counts', problems: ['NOT_FOUND'] }),
    )
    .input(JobIdSchema)
    .output(JobShowSchema)
    .query(showJob),
  cancel: protectedProcedure
    .meta(
      rest('POST', '/jobs/{id}/cancel', {
        summary: 'Stop a job: a queued one at once, a running one before its next chunk',
        problems: ['NOT_FOUND', 'JOB_FINISHED'],
      }),
    )
    .input(JobIdSchema)
    .output(JobAnswerSchema)
    .mutation(cancelJob),
  report: protectedProcedure
    .meta(
      rest('GET', '/jobs/{id}/report', {
        summary: 'Every user the job skipped or failed on, and why (CSV or JSON)',
        produces: ['text/csv', 'application/json'],
        problems: ['NOT_FOUND'],
      }),
    )
    .use(restDownload)
    .input(JobReportInputSchema)
    .query(jobReport),
});
