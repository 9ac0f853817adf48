import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { JobKindRunner, JobsSettings } from '../jobs/runner.js';
import { importJobKind } from '../modules/imports/import-job.js';
import { undoJobKind } from '../modules/imports/undo-job.js';
import { selectionJobKind } from '../bulk/selection-job.js';
import { usersBulk } from '../modules/users/users.bulk.js';
import { bulkUndoKind, undoesBulk } from '../modules/users/bulk.undo.js';
import type { JobRow } from '../jobs/job-rows.js';

/** Every kind of job this version runs, by the `kind` stored on the job row. */
export function jobKinds(db: Database, config: AppConfig): Record<string, JobKindRunner> {
  return {
    bulk: selectionJobKind(db, config, [usersBulk]),
    import: importJobKind(db, config),
    undo: undoKind(undoJobKind(db, config), bulkUndoKind(db, config)),
  };
}

/** An undo reverses an import or a bulk job: its params say which, and that runner takes it. */
function undoKind(ofImport: JobKindRunner, ofBulk: JobKindRunner): JobKindRunner {
  const runnerOf = (job: JobRow) => (undoesBulk(job) ? ofBulk : ofImport);
  return {
    chunk: (job, tx, size) => runnerOf(job).chunk(job, tx, size),
    finished: (job, status, tx) => runnerOf(job).finished(job, status, tx),
  };
}

export const jobsSettings = (config: AppConfig): JobsSettings => ({
  concurrency: config.JOBS_CONCURRENCY,
  chunkSize: config.JOBS_CHUNK_SIZE,
  dryRunChunkSize: config.JOBS_DRY_RUN_CHUNK_SIZE,
  niceRatio: config.BACKGROUND_NICE_RATIO,
  leaseMs: config.JOBS_LEASE_SECONDS * 1000,
  pollMs: 1_000,
  retentionMs: config.JOBS_RETENTION_DAYS * 86_400_000,
});
