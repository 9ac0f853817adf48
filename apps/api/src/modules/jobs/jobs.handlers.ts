import {
  IMPORT_PROBLEMS_SHOWN,
  IMPORT_REPORT_COLUMNS,
  type Job,
  type JobReportInput,
  type JobReportRow,
  type JobsListQuery,
  type JobsListResult,
  isFinishedJob,
  JOB_EXAMPLES_PER_CODE,
  JOB_REPORT_COLUMNS,
  type JobShow,
  type JobStatus,
} from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { exportFilename } from '../../export/columns.js';
import { FileDownload } from '../../export/file-download.js';
import { EXPORT_WRITERS } from '../../export/formats.js';
import { JOB_COLUMNS, type JobRow, toJob } from '../../jobs/job-rows.js';
import { finishJob, markCancelling, readJob } from '../../jobs/job-store.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { listPage, readListPage } from '../../query/list-page.js';
import { assertMayCancel, cancelState, seesEveryJob, visibleJob } from './jobs.access.js';
import { jobsMapping } from './jobs.mapping.js';
import { submitterNames, withSubmitter } from './jobs.submitters.js';

type Call<I> = { ctx: Context & { actor: Actor }; input: I };

/** GET /jobs: the caller's jobs (everyone's with `jobs.view`), newest first. */
export async function listJobs({ ctx, input }: Call<JobsListQuery>): Promise<JobsListResult> {
  const { db } = ctx;
  const scope = seesEveryJob(ctx.actor) ? undefined : { actor_id: ctx.actor.id };
  const { ids, counted } = await readListPage(db, db.models.Job, jobsMapping, input, scope);
  const found = ids.length
    ? await db.sequelize.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id IN (:ids)`, {
        replacements: { ids },
        type: QueryTypes.SELECT,
      })
    : [];
  const names = await submitterNames(db, found);
  const byId = new Map(found.map((r) => [Number(r.id), withSubmitter(r, names)]));
  return listPage(
    input,
    counted,
    ids,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/** An import's first problem lines, in the file's order (chunks report their lines in order). */
async function firstProblems(ctx: Context, jobId: number): Promise<JobShow['problems']> {
  const rows = await ctx.db.sequelize.query<{
    line: number | string | null;
    email: string;
    code: string;
    message: string;
  }>(
    `SELECT line, email, code, message FROM job_items WHERE job_id = :jobId ORDER BY id LIMIT ${IMPORT_PROBLEMS_SHOWN}`,
    { replacements: { jobId }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({
    line: Number(r.line ?? 1),
    email: r.email,
    code: r.code as JobShow['problems'][number]['code'],
    message: r.message,
  }));
}

/**
 * GET /jobs/{id}: where a job stands, and the first users it skipped for each reason (an
 * import: its first problem lines).
 */
export async function showJob({ ctx, input }: Call<{ id: number }>): Promise<JobShow> {
  const row = await visibleJob(ctx.db, ctx.actor, input.id);
  const job = {
    ...withSubmitter(row, await submitterNames(ctx.db, [row])),
    actions: { cancel: cancelState(ctx.actor, row) },
  };
  if (job.kind === 'import') return { item: job, examples: {}, problems: await firstProblems(ctx, input.id) };
  const examples: JobShow['examples'] = {};
  // One short read per reason (a handful of codes at most), each through (job_id, id).
  for (const code of Object.keys(job.counts)) {
    const rows = await ctx.db.sequelize.query<{ user_id: number | string | null; email: string; message: string }>(
      `SELECT user_id, email, message FROM job_items WHERE job_id = :id AND code = :code ORDER BY id
        LIMIT ${JOB_EXAMPLES_PER_CODE}`,
      { replacements: { id: input.id, code }, type: QueryTypes.SELECT },
    );
    examples[code] = rows.map((r) => ({
      id: r.user_id === null ? null : Number(r.user_id),
      email: r.email,
      message: r.message,
    }));
  }
  return { item: job, examples, problems: [] };
}

/**
 * POST /jobs/{id}/cancel: a queued job is cancelled at once; a running one is marked
 * `cancelling` and its runner stops it before its next chunk (what is committed stays). A
 * finished job answers 409; asking twice is harmless.
 */
export async function cancelJob({ ctx, input }: Call<{ id: number }>): Promise<{ job: Job }> {
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
  return { job: toJob(row) };
}

/** Report lines are read this many at a time, so a report of any size streams in constant memory. */
const REPORT_BATCH = 1_000;

async function* reportBatches(ctx: Context, jobId: number): AsyncIterable<JobReportRow[]> {
  let after = 0;
  for (;;) {
    const rows = await ctx.db.sequelize.query<{
      id: number | string;
      line: number | string | null;
      user_id: number | string | null;
      email: string;
      outcome: JobReportRow['outcome'];
      code: JobReportRow['code'];
      message: string;
    }>(
      `SELECT id, line, user_id, email, outcome, code, message FROM job_items
        WHERE job_id = :jobId AND id > :after ORDER BY id LIMIT ${REPORT_BATCH}`,
      { replacements: { jobId, after }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]?.id);
    yield rows.map((r) => ({
      line: r.line === null ? null : Number(r.line),
      id: r.user_id === null ? null : Number(r.user_id),
      email: r.email,
      outcome: r.outcome,
      code: r.code,
      message: r.message,
    }));
    if (rows.length < REPORT_BATCH) return;
  }
}

/** GET /jobs/{id}/report?format=csv|json: every user the job skipped or failed on, and why. */
export async function jobReport({ ctx, input }: Call<JobReportInput>): Promise<FileDownload> {
  const job = await visibleJob(ctx.db, ctx.actor, input.id);
  const writer = EXPORT_WRITERS[input.format];
  const columns = job.kind === 'import' ? IMPORT_REPORT_COLUMNS : JOB_REPORT_COLUMNS;
  return new FileDownload(
    exportFilename(`job-${input.id}-report`, writer.extension),
    writer.contentType,
    writer.write(reportBatches(ctx, input.id), columns, { sheetName: 'Report' }),
  );
}
