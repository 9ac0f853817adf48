import type { Job } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { HandlerContext } from '../context.js';
import { writeTransaction } from '../db/transaction.js';
import { auditOriginOf, recordChange } from '../journal/journal.js';
import { insertJob, type NewJob, readJob } from './job-store.js';
import { answerJob } from './job-target.js';

/** A job to queue: its row (the submitter and door come from the request) and its audit row's say. */
export interface JobSubmission extends Omit<NewJob, 'actorId' | 'via' | 'ip' | 'requestId'> {
  /** The `job.submit` audit row's context: the kind, operation, dry run and whatever tells the job apart. */
  audit: Record<string, unknown>;
  /** Writes that belong with the new job, given its id (the job it undoes marked, its upload tied to it). */
  mark?: (tx: Transaction, jobId: number) => Promise<void>;
}

/**
 * Queues a job as every door submits one: `prepare` says which job, inside the transaction (so
 * it may lock what the job is about and refuse); the job's row, its marks and its `job.submit`
 * audit row then commit together. Answers the job as the API shows a submission (202 `{job}`).
 */
export async function submitJob(
  ctx: HandlerContext,
  prepare: (tx: Transaction) => Promise<JobSubmission>,
): Promise<{ job: Job }> {
  const { db } = ctx;
  const origin = auditOriginOf(ctx);
  const id = await writeTransaction(db, async (tx) => {
    const { audit, mark, ...job } = await prepare(tx);
    const jobId = await insertJob(db, tx, {
      ...job,
      actorId: origin.actorId,
      via: origin.via ?? null,
      ip: origin.ip,
      requestId: origin.requestId,
    });
    await mark?.(tx, jobId);
    await recordChange(db, tx, {
      ...origin,
      action: 'job.submit',
      targetType: 'job',
      targetIds: [jobId],
      context: audit,
    });
    return jobId;
  });
  const row = await readJob(db, id);
  if (!row) throw new Error(`job ${id} vanished after it was created`);
  return { job: await answerJob(db, ctx.actor, row) };
}
