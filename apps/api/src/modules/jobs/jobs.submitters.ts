import type { JobWithSubmitter } from '@app/contracts';
import { Op } from 'sequelize';
import type { Database } from '../../db/database.js';
import { type JobRow, toJob } from '../../jobs/job-rows.js';

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

/** The job as the list and its page answer it; `names` from submitterNames. */
export function withSubmitter(row: JobRow, names: ReadonlyMap<number, string>): JobWithSubmitter {
  const job = toJob(row);
  const name = job.actor_id === null ? undefined : names.get(job.actor_id);
  return {
    ...job,
    submitted_by: job.actor_id === null || name === undefined ? null : { id: job.actor_id, name },
  };
}
