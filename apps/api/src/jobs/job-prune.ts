import { QueryTypes } from 'sequelize';
import type { Database } from '../db/database.js';
import { deleteInBatches } from '../db/delete-in-batches.js';
import { sqlDate } from '../db/sql-date.js';
import { inWriteTurn } from '../db/transaction.js';

/** Jobs per round of the prune. */
const PRUNE_JOBS = 100;
/** A job's record rows deleted per statement: one job may have changed 820 000 users. */
const PRUNE_ROWS = 5_000;

/** What a job keeps beside its row: its report's lines, the users it changed, an import's undo record. */
const RECORDS = ['job_changes', 'job_items', 'import_changes'] as const;

/**
 * Deletes jobs that finished before `before`, oldest first, `jobs` at a time: first their records
 * (report lines, changed users, an import's undo record — its undo window long over), `rows` per
 * statement, each a short write of its own, so a prune never holds locks for long however big a
 * job was; then the jobs' rows. A prune cut short leaves a job whose records went partly, to the
 * next prune. Returns how many jobs went. Queued and running jobs are never touched, however old.
 */
export async function pruneFinishedJobs(
  db: Database,
  before: Date,
  { jobs = PRUNE_JOBS, rows = PRUNE_ROWS }: { jobs?: number; rows?: number } = {},
): Promise<number> {
  let pruned = 0;
  for (;;) {
    const found = await db.sequelize.query<{ id: number | string }>(
      `SELECT id FROM jobs WHERE finished_at < :before ORDER BY finished_at LIMIT ${Number(jobs)}`,
      { replacements: { before: sqlDate(db, before) }, type: QueryTypes.SELECT },
    );
    const ids = found.map((r) => Number(r.id));
    if (ids.length === 0) return pruned;
    for (const table of RECORDS) await deleteInBatches(db, table, 'job_id IN (:ids)', { ids }, rows);
    await inWriteTurn(db, () => db.sequelize.query('DELETE FROM jobs WHERE id IN (:ids)', { replacements: { ids } }));
    pruned += ids.length;
    if (ids.length < jobs) return pruned;
  }
}
