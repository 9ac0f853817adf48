import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { recordChange } from '../journal/journal.js';
import { type ImportJobState, type JobRow, parseJson, toJob } from './job-rows.js';
import { readJob } from './job-store.js';
import { targetLookups, targetOf } from './job-target.js';

/** Whoever reads a job's end: a webhook's receiver holds no permission. */
const EVERY_RECEIVER = { permissions: new Set<string>() };

/**
 * Records a job's end inside the transaction that ends it: `job.finish` in the audit trail (and
 * through it the `bulk.completed` event of a bulk job), as its submitter, via the same door.
 * `keep` lets a kind leave something in the job's state for later (an import: until when it
 * can be undone).
 */
export async function recordJobEnd(
  db: Database,
  tx: Transaction,
  job: JobRow,
  status: 'succeeded' | 'failed' | 'cancelled',
  keep?: (state: Partial<ImportJobState>) => Partial<ImportJobState>,
): Promise<void> {
  if (keep) {
    const current = (await readJob(db, Number(job.id), tx)) ?? job;
    const state = keep(parseJson<Partial<ImportJobState>>(current.state ?? '{}', {}));
    await db.sequelize.query('UPDATE jobs SET state = :state WHERE id = :id', {
      replacements: { state: JSON.stringify(state), id: Number(job.id) },
      transaction: tx,
    });
  }
  const row = (await readJob(db, Number(job.id), tx)) ?? job;
  const done = toJob(row);
  await recordChange(db, tx, {
    actorId: done.actor_id,
    action: 'job.finish',
    targetType: 'job',
    targetIds: [done.id],
    context: {
      status,
      kind: done.kind,
      operation: done.operation,
      dryRun: done.dryRun,
      progress: done.progress,
      counts: done.counts,
      // What it ran on, for `bulk.completed`: told as to a reader with no permission, since every
      // receiver gets it (a condition on a sensitive attribute is left out and counted).
      target: targetOf(row, done, await targetLookups(db, EVERY_RECEIVER, [row], tx)),
    },
    ip: job.ip,
    requestId: job.request_id,
    via:
      job.via_kind === 'token' || job.via_kind === 'session' || job.via_kind === 'cli'
        ? { kind: job.via_kind, name: job.via_name }
        : null,
  });
}
