import { IMPORT_REPORT_COLUMNS, JOB_REPORT_COLUMNS, type JobReportInput, type JobReportRow } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { type JobPeopleView, lineFor } from '../../domain/disclosure.js';
import { exportFilename } from '../../export/columns.js';
import { FileDownload } from '../../export/file-download.js';
import { EXPORT_WRITERS } from '../../export/formats.js';
import { peopleViewOf, visibleJob } from './jobs.access.js';
import type { HandlerCall } from '../../context.js';

/** Report lines are read this many at a time, so a report of any size streams in constant memory. */
const REPORT_BATCH = 1_000;

interface ItemRow {
  id: number | string;
  line: number | string | null;
  user_id: number | string | null;
  email: string;
  outcome: JobReportRow['outcome'];
  code: JobReportRow['code'];
  message: string;
}

async function* reportBatches(db: Database, jobId: number, view: JobPeopleView): AsyncIterable<JobReportRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db.sequelize.query<ItemRow>(
      `SELECT id, line, user_id, email, outcome, code, message FROM job_items
        WHERE job_id = :jobId AND id > :after ORDER BY id LIMIT ${REPORT_BATCH}`,
      { replacements: { jobId, after }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]?.id);
    yield rows.map((r) =>
      lineFor(view, {
        line: r.line === null ? null : Number(r.line),
        id: r.user_id === null ? null : Number(r.user_id),
        email: r.email,
        outcome: r.outcome,
        code: r.code,
        message: r.message,
      }),
    );
    if (rows.length < REPORT_BATCH) return;
  }
}

/**
 * GET /jobs/{id}/report?format=csv|json: every user the job skipped or failed on, and why, named
 * as the caller may read them (domain/disclosure.ts).
 */
export async function jobReport({ ctx, input }: HandlerCall<JobReportInput>): Promise<FileDownload> {
  const job = await visibleJob(ctx.db, ctx.actor, input.id);
  const writer = EXPORT_WRITERS[input.format];
  const columns = job.kind === 'import' ? IMPORT_REPORT_COLUMNS : JOB_REPORT_COLUMNS;
  return new FileDownload(
    exportFilename(`job-${input.id}-report`, writer.extension),
    writer.contentType,
    writer.write(reportBatches(ctx.db, input.id, peopleViewOf(ctx.actor, job)), columns, { sheetName: 'Report' }),
  );
}
