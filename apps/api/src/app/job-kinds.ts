import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { JobKindRunner, JobsSettings } from '../jobs/runner.js';
import { importJobKind } from '../modules/imports/import-job.js';
import { undoJobKind } from '../modules/imports/undo-job.js';
import { selectionJobKind } from '../bulk/selection-job.js';
import { usersBulk } from '../modules/users/users.bulk.js';

/** Every kind of job this version runs, by the `kind` stored on the job row. */
export function jobKinds(db: Database, config: AppConfig): Record<string, JobKindRunner> {
  return {
    bulk: selectionJobKind(db, config, [usersBulk]),
    import: importJobKind(db, config),
    undo: undoJobKind(db, config),
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
