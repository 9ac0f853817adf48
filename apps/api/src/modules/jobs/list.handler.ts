import type { JobsListQuery, JobsListResult } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { JOB_COLUMNS, type JobRow } from '../../jobs/job-rows.js';
import { listPage, readListPage } from '../../query/list-page.js';
import { seesEveryJob } from '../../domain/jobs.rules.js';
import { jobsMapping, withDryRunFilter } from './jobs.mapping.js';
import { jobLookups, withSubmitter } from './jobs.submitters.js';
import type { HandlerCall } from '../../context.js';

/** GET /jobs: the caller's jobs (everyone's with `jobs.view`), newest first; dry runs only when asked. */
export async function listJobs({ ctx, input }: HandlerCall<JobsListQuery>): Promise<JobsListResult> {
  const { db } = ctx;
  const scope = seesEveryJob(ctx.actor) ? undefined : { actor_id: ctx.actor.id };
  const { ids, counted } = await readListPage(db, db.models.Job, jobsMapping, withDryRunFilter(input), scope);
  const found = ids.length
    ? await db.sequelize.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id IN (:ids)`, {
        replacements: { ids },
        type: QueryTypes.SELECT,
      })
    : [];
  const lookups = await jobLookups(db, ctx.actor, found);
  const byId = new Map(found.map((r) => [Number(r.id), withSubmitter(r, lookups, ctx.actor)]));
  return listPage(
    input,
    counted,
    ids,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}
