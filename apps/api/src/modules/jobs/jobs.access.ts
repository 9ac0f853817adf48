import { BULK_PERMISSIONS, type BulkOperation } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { JobRow } from '../../jobs/job-rows.js';
import { lockJob, readJob } from '../../jobs/job-store.js';

/** Everyone sees their own jobs; `jobs.view` sees every job. */
export const seesEveryJob = (actor: Actor): boolean => actor.permissions.has('jobs.view');

const notFound = (id: number) => new AppError('NOT_FOUND', `There is no job with id ${id}.`);

/** A job the caller may see, or 404 (another's job is not found, not forbidden: its existence is not told). */
export async function visibleJob(db: Database, actor: Actor, id: number, tx?: Transaction): Promise<JobRow> {
  const row = tx ? await lockJob(db, tx, id) : await readJob(db, id);
  if (!row) throw notFound(id);
  const own = row.actor_id !== null && Number(row.actor_id) === actor.id;
  if (!own && !seesEveryJob(actor)) throw notFound(id);
  return row;
}

/**
 * Cancelling: the job's submitter, or someone who sees every job and holds the permission the
 * job's operation needs (stopping a change is as much a decision about it as starting one).
 */
export function assertMayCancel(actor: Actor, job: JobRow): void {
  if (job.actor_id !== null && Number(job.actor_id) === actor.id) return;
  const needed = job.operation ? BULK_PERMISSIONS[job.operation as BulkOperation] : undefined;
  if (needed && !actor.permissions.has(needed)) {
    throw new AppError('FORBIDDEN', `You need the ${needed} permission to cancel this job.`, {
      extra: { permission: needed },
    });
  }
}
