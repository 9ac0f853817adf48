import { isFinishedJob, type Job, type JobStatus } from '@app/contracts';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { finishJob, markCancelling, readJob } from '../../jobs/job-store.js';
import { answerJob } from '../../jobs/job-target.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { assertMayCancel, visibleJob } from './jobs.access.js';
import type { HandlerCall } from '../../context.js';

/**
 * POST /jobs/{id}/cancel: a queued job is cancelled at once; a running one is marked
 * `cancelling` and its runner stops it before its next chunk (what is committed stays). A
 * finished job answers 409; asking twice is harmless.
 */
export async function cancelJob({ ctx, input }: HandlerCall<{ id: number }>): Promise<{ job: Job }> {
  const { db } = ctx;
  // The answer is the job as this cancel left it, read in its transaction: read after the commit,
  // a runner could already have stopped the job, and the answer would say `cancelled` for a
  // cancel that only asked.
  const row = await writeTransaction(db, async (tx) => {
    const job = await visibleJob(db, ctx.actor, input.id, tx);
    assertMayCancel(ctx.actor, job);
    const status = job.status as JobStatus;
    if (isFinishedJob(status)) {
      throw new AppError('JOB_FINISHED', `The job has already finished (${status}): there is nothing to cancel.`);
    }
    if (status === 'cancelling') return job;
    if (status === 'queued') await finishJob(db, tx, input.id, 'cancelled');
    else await markCancelling(db, tx, input.id);
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'job.cancel',
      targetType: 'job',
      targetIds: [input.id],
      context: { kind: job.kind, operation: job.operation, status },
    });
    return readJob(db, input.id, tx);
  });
  if (!row) throw new AppError('NOT_FOUND', `There is no job with id ${input.id}.`);
  return { job: await answerJob(db, ctx.actor, row) };
}
