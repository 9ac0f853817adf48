import { type ActionState, isFinishedJob, type JobStatus } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { JobRow } from '../../jobs/job-rows.js';
import { lockJob, readJob } from '../../jobs/job-store.js';
import { cancelRefusal, maySeeJob } from '../../domain/jobs.rules.js';
import { type JobPeopleView, jobPeopleView } from '../../domain/disclosure.js';
import { jobAskedOf } from './job-asked.js';

const submitterOf = (row: JobRow): number | null => (row.actor_id === null ? null : Number(row.actor_id));

const notFound = (id: number) => new AppError('NOT_FOUND', `There is no job with id ${id}.`);

/** A job the caller may see, or 404 (another's job is not found, not forbidden: its existence is not told). */
export async function visibleJob(db: Database, actor: Actor, id: number, tx?: Transaction): Promise<JobRow> {
  const row = tx ? await lockJob(db, tx, id) : await readJob(db, id);
  if (!row) throw notFound(id);
  if (!maySeeJob(actor, submitterOf(row))) throw notFound(id);
  return row;
}

/** Cancelling: the submitter, or jobs.view with every permission the job needed (domain/jobs.rules.ts). */
export function assertMayCancel(actor: Actor, job: JobRow): void {
  const refusal = cancelRefusal(actor, { submitterId: submitterOf(job), asked: jobAskedOf(job) });
  if (refusal) {
    throw new AppError(
      refusal.code,
      refusal.message,
      refusal.permission ? { extra: { permission: refusal.permission } } : {},
    );
  }
}

/** Whether the caller may cancel the job, as the job's page offers it. */
export function cancelState(actor: Actor, job: JobRow): ActionState {
  const status = job.status as JobStatus;
  if (isFinishedJob(status)) {
    return { allowed: false, code: 'JOB_FINISHED', message: `The job has already finished (${status}).` };
  }
  const refusal = cancelRefusal(actor, { submitterId: submitterOf(job), asked: jobAskedOf(job) });
  return refusal ? { allowed: false, code: refusal.code, message: refusal.message } : { allowed: true };
}

/** How much of the people in the job's lines the caller may read (domain/disclosure.ts). */
export const peopleViewOf = (actor: Actor, job: JobRow): JobPeopleView =>
  jobPeopleView(actor, { kind: job.kind, submitterId: submitterOf(job) });
