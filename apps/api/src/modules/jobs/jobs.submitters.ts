import type { JobWithSubmitter } from '@app/contracts';
import { Op } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { jobPeopleView } from '../../domain/disclosure.js';
import { type JobRow, toJob } from '../../jobs/job-rows.js';
import { type TargetLookups, targetLookups, targetOf } from '../../jobs/job-target.js';

/**
 * Names of the users who submitted `rows`, by id, in one read: a user deleted since (in the
 * trash) is still named; one erased since has none.
 */
export async function submitterNames(db: Database, rows: readonly JobRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.actor_id === null ? [] : [Number(r.actor_id)])))];
  if (ids.length === 0) return new Map();
  const users = await db.models.User.findAll({
    attributes: ['id', 'name'],
    where: { id: { [Op.in]: ids } },
    paranoid: false,
  });
  return new Map(users.map((u) => [Number(u.id), u.name]));
}

/** What the list and a job's page read once for a page of jobs: who submitted them, what they ran on. */
export interface JobLookups {
  names: ReadonlyMap<number, string>;
  targets: TargetLookups;
}

export async function jobLookups(db: Database, caller: Actor, rows: readonly JobRow[]): Promise<JobLookups> {
  const [names, targets] = await Promise.all([submitterNames(db, rows), targetLookups(db, caller, rows)]);
  return { names, targets };
}

/**
 * The job as the list and its page answer it to `caller`, with `lookups` read for it. An
 * import's first rows (its file's sample) are people: read back by its submitter and by
 * users.view holders, left out for anyone else (domain/disclosure.ts).
 */
export function withSubmitter(row: JobRow, lookups: JobLookups, caller: Actor): JobWithSubmitter {
  const job = toJob(row);
  const { names } = lookups;
  const name = job.actor_id === null ? undefined : names.get(job.actor_id);
  const view = jobPeopleView(caller, { kind: job.kind, submitterId: job.actor_id });
  return {
    ...job,
    import: job.import && view === 'none' ? { ...job.import, file: { ...job.import.file, sample: [] } } : job.import,
    submitted_by: job.actor_id === null || name === undefined ? null : { id: job.actor_id, name },
    target: targetOf(row, job, lookups.targets),
  };
}
