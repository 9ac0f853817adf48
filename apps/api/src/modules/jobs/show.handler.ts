import { IMPORT_PROBLEMS_SHOWN, JOB_EXAMPLES_PER_CODE, type JobShow } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { type JobPeopleView, jobPeopleState, lineFor } from '../../domain/disclosure.js';
import { cancelState, peopleViewOf, visibleJob } from './jobs.access.js';
import { jobLookups, withSubmitter } from './jobs.submitters.js';
import type { HandlerCall } from '../../context.js';

type ProblemCode = JobShow['problems'][number]['code'];

/** An import's first problem lines, in the file's order (chunks report their lines in order). */
async function firstProblems(db: Database, jobId: number, view: JobPeopleView): Promise<JobShow['problems']> {
  const rows = await db.sequelize.query<{ line: number | string | null; email: string; code: string; message: string }>(
    `SELECT line, email, code, message FROM job_items WHERE job_id = :jobId ORDER BY id LIMIT ${IMPORT_PROBLEMS_SHOWN}`,
    { replacements: { jobId }, type: QueryTypes.SELECT },
  );
  return rows.map((r) =>
    lineFor(view, { line: Number(r.line ?? 1), email: r.email, code: r.code as ProblemCode, message: r.message }),
  );
}

/** The first users a job skipped for each reason: one short read per code, each through (job_id, id). */
async function examplesByCode(db: Database, jobId: number, codes: string[], view: JobPeopleView) {
  const examples: JobShow['examples'] = {};
  for (const code of codes) {
    const rows = await db.sequelize.query<{ user_id: number | string | null; email: string; message: string }>(
      `SELECT user_id, email, message FROM job_items WHERE job_id = :id AND code = :code ORDER BY id
        LIMIT ${JOB_EXAMPLES_PER_CODE}`,
      { replacements: { id: jobId, code }, type: QueryTypes.SELECT },
    );
    examples[code] = rows.map((r) => {
      const line = { id: r.user_id === null ? null : Number(r.user_id), email: r.email, code, message: r.message };
      const { id, email, message } = lineFor(view, line);
      return { id, email, message };
    });
  }
  return examples;
}

/**
 * GET /jobs/{id}: where a job stands, whether the caller may cancel it, and the first users it
 * skipped for each reason (an import: its first problem lines) — named as the caller may read
 * them (domain/disclosure.ts).
 */
export async function showJob({ ctx, input }: HandlerCall<{ id: number }>): Promise<JobShow> {
  const row = await visibleJob(ctx.db, ctx.actor, input.id);
  const item = {
    ...withSubmitter(row, await jobLookups(ctx.db, ctx.actor, [row]), ctx.actor),
    actions: { cancel: cancelState(ctx.actor, row) },
  };
  const view = peopleViewOf(ctx.actor, row);
  const people = jobPeopleState(view);
  if (item.kind === 'import') {
    return { item, examples: {}, problems: await firstProblems(ctx.db, input.id, view), people };
  }
  return {
    item,
    examples: await examplesByCode(ctx.db, input.id, Object.keys(item.counts), view),
    problems: [],
    people,
  };
}
