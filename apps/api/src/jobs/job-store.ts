import type { AuditVia, JobKind, JobStatus } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { inWriteTurn, writeTransaction } from '../db/transaction.js';
import { type ImportJobState, JOB_COLUMNS, type JobRow } from './job-rows.js';

/**
 * The jobs table's writes. A job is held by one process at a time through its lease: claimed
 * when queued or when its holder's lease ran out, renewed by the holder's heartbeat, and checked
 * under the row's lock by every chunk before it commits, so a process that lost its lease (it
 * stalled, the database failed over) can never commit a chunk another holder also commits.
 */

export interface NewJob {
  kind: JobKind;
  operation: string | null;
  params: unknown;
  dryRun: boolean;
  total: number;
  actorId: number | null;
  via: { kind: AuditVia['kind']; name?: string | null | undefined } | null;
  ip: string | null;
  requestId: string | null;
  /** A retried submission's key (`Idempotency-Key`): unique per actor. */
  idempotencyKey?: string | null;
  /** What the key is held to: a hash of the submission's payload. */
  idempotencyFingerprint?: string | null;
}

const lockClause = (db: Database) => (db.dialect === 'mysql' ? ' FOR UPDATE SKIP LOCKED' : '');
const forUpdate = (db: Database) => (db.dialect === 'mysql' ? ' FOR UPDATE' : '');

export async function insertJob(db: Database, tx: Transaction | null, job: NewJob, now = new Date()): Promise<number> {
  const at = sqlDate(db, now);
  const [id] = await db.sequelize.query(
    `INSERT INTO jobs (kind, operation, params, dry_run, status, total, counts, actor_id, via_kind, via_name, ip,
                       request_id, idempotency_key, idempotency_fingerprint, created_at, updated_at)
     VALUES (:kind, :operation, :params, :dryRun, 'queued', :total, '{}', :actorId, :viaKind, :viaName, :ip,
             :requestId, :idempotencyKey, :idempotencyFingerprint, :at, :at)`,
    {
      replacements: {
        kind: job.kind,
        operation: job.operation,
        params: JSON.stringify(job.params),
        dryRun: job.dryRun,
        total: job.total,
        actorId: job.actorId,
        viaKind: job.via?.kind ?? 'unknown',
        viaName: job.via?.name ?? null,
        ip: job.ip,
        requestId: job.requestId,
        idempotencyKey: job.idempotencyKey ?? null,
        idempotencyFingerprint: job.idempotencyFingerprint ?? null,
        at,
      },
      type: QueryTypes.INSERT,
      transaction: tx,
    },
  );
  return Number(id);
}

export async function readJob(db: Database, id: number, tx: Transaction | null = null): Promise<JobRow | null> {
  const [row] = await db.sequelize.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = :id`, {
    replacements: { id },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return row ?? null;
}

/** The job row under its lock, inside a chunk's or a cancel's transaction. */
export async function lockJob(db: Database, tx: Transaction, id: number): Promise<JobRow | null> {
  const [row] = await db.sequelize.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = :id${forUpdate(db)}`, {
    replacements: { id },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return row ?? null;
}

/** Jobs a runner may take: queued, or running or cancelling under a lease that ran out. */
const CLAIMABLE = "(status = 'queued' OR (status IN ('running', 'cancelling') AND lease_until < :now))";

/**
 * Claims up to `limit` jobs for `owner`: queued ones, and running or cancelling ones whose lease
 * ran out (their holder died or stalled), oldest first, never one of `inHand` (this runner's own,
 * whose lease may have run out while the database was away: its loop is still on it). Returns
 * their ids.
 */
export async function claimJobs(
  db: Database,
  owner: string,
  limit: number,
  leaseMs: number,
  now = new Date(),
  inHand: readonly number[] = [],
): Promise<number[]> {
  if (limit <= 0) return [];
  const claimable = inHand.length ? `${CLAIMABLE} AND id NOT IN (:inHand)` : CLAIMABLE;
  // Most polls find nothing: a plain read on the primary (the claim index) decides whether a write
  // transaction is worth opening, so an idle runner takes no lock and holds no writer's turn.
  const [waiting] = await db.sequelize.query<{ id: number | string }>(
    `SELECT id FROM jobs WHERE ${claimable} LIMIT 1`,
    { replacements: { now: sqlDate(db, now), inHand }, type: QueryTypes.SELECT },
  );
  if (!waiting) return [];
  return writeTransaction(db, async (tx) => {
    const rows = await db.sequelize.query<{ id: number | string }>(
      `SELECT id FROM jobs WHERE ${claimable} ORDER BY id LIMIT ${Number(limit)}${lockClause(db)}`,
      { replacements: { now: sqlDate(db, now), inHand }, type: QueryTypes.SELECT, transaction: tx },
    );
    const ids = rows.map((r) => Number(r.id));
    if (ids.length === 0) return ids;
    await db.sequelize.query(
      `UPDATE jobs SET status = CASE WHEN status = 'queued' THEN 'running' ELSE status END,
              lease_owner = :owner, lease_until = :until, attempts = attempts + 1,
              started_at = COALESCE(started_at, :now), updated_at = :now
        WHERE id IN (:ids)`,
      {
        replacements: { owner, until: sqlDate(db, new Date(now.getTime() + leaseMs)), now: sqlDate(db, now), ids },
        type: QueryTypes.UPDATE,
        transaction: tx,
      },
    );
    return ids;
  });
}

/** Extends `owner`'s lease on a job; false when the lease is no longer its own (the job moved on). */
export async function renewLease(db: Database, id: number, owner: string, leaseMs: number, now = new Date()) {
  // In its turn among the writers (SQLite's one write lock), like every write outside a transaction.
  const [, affected] = await inWriteTurn(db, () =>
    db.sequelize.query(
      `UPDATE jobs SET lease_until = :until WHERE id = :id AND lease_owner = :owner
        AND status IN ('running', 'cancelling')`,
      {
        replacements: { id, owner, until: sqlDate(db, new Date(now.getTime() + leaseMs)) },
        type: QueryTypes.UPDATE,
      },
    ),
  );
  return Number(affected) === 1;
}

/** Gives a lease up early (the runner is stopping): the job can be claimed again at once. */
export async function releaseLease(db: Database, id: number, owner: string, now = new Date()) {
  await inWriteTurn(db, () =>
    db.sequelize.query(
      "UPDATE jobs SET lease_until = :now WHERE id = :id AND lease_owner = :owner AND status IN ('running', 'cancelling')",
      { replacements: { id, owner, now: sqlDate(db, new Date(now.getTime() - 1)) }, type: QueryTypes.UPDATE },
    ),
  );
}

/** Progress a committed chunk adds (counts per skip code merged into the stored ones). */
export interface ChunkProgress {
  cursor: number | null;
  /** The kind's state for the next chunk; undefined leaves it as it is. */
  state?: unknown;
  processed: number;
  changed: number;
  skipped: number;
  failed: number;
  counts: Record<string, number>;
}

/** Records a chunk inside its transaction, extending the lease (the caller holds the job's lock). */
export async function recordChunk(
  db: Database,
  tx: Transaction,
  job: JobRow,
  progress: ChunkProgress,
  leaseMs: number,
  now = new Date(),
): Promise<void> {
  const counts: Record<string, number> = { ...JSON.parse(job.counts || '{}') };
  for (const [code, n] of Object.entries(progress.counts)) counts[code] = (counts[code] ?? 0) + n;
  await db.sequelize.query(
    `UPDATE jobs SET cursor_id = :cursor, processed = processed + :processed, changed = changed + :changed,
            skipped = skipped + :skipped, failed = failed + :failed, counts = :counts, lease_until = :until,
            state = :state, updated_at = :now
      WHERE id = :id`,
    {
      replacements: {
        id: Number(job.id),
        cursor: progress.cursor,
        processed: progress.processed,
        changed: progress.changed,
        skipped: progress.skipped,
        failed: progress.failed,
        counts: JSON.stringify(counts),
        state: progress.state === undefined ? job.state : JSON.stringify(progress.state),
        until: sqlDate(db, new Date(now.getTime() + leaseMs)),
        now: sqlDate(db, now),
      },
      type: QueryTypes.UPDATE,
      transaction: tx,
    },
  );
}

/** Ends a job: its final status (and why, when it failed); the lease is let go. */
export async function finishJob(
  db: Database,
  tx: Transaction,
  id: number,
  status: Extract<JobStatus, 'succeeded' | 'failed' | 'cancelled'>,
  error: string | null = null,
  now = new Date(),
): Promise<void> {
  await db.sequelize.query(
    `UPDATE jobs SET status = :status, error = :error, finished_at = :now, updated_at = :now,
            lease_owner = NULL, lease_until = NULL
      WHERE id = :id`,
    { replacements: { id, status, error, now: sqlDate(db, now) }, type: QueryTypes.UPDATE, transaction: tx },
  );
}

/** Records on a job the undo asked of it (its state's `undoneBy`): a second undo is then refused. */
export async function markUndone(
  db: Database,
  tx: Transaction,
  jobId: number,
  state: Partial<ImportJobState>,
  undoId: number,
): Promise<void> {
  await db.sequelize.query('UPDATE jobs SET state = :state WHERE id = :id', {
    replacements: { state: JSON.stringify({ ...state, undoneBy: undoId }), id: jobId },
    transaction: tx,
  });
}

/** Asks a job to stop: a queued one is cancelled at once, a running one at its next chunk. */
export async function markCancelling(db: Database, tx: Transaction, id: number, now = new Date()) {
  await db.sequelize.query(
    `UPDATE jobs SET status = 'cancelling', updated_at = :now WHERE id = :id AND status = 'running'`,
    { replacements: { id, now: sqlDate(db, now) }, type: QueryTypes.UPDATE, transaction: tx },
  );
}

export interface JobItem {
  userId: number | null;
  email: string;
  outcome: 'skipped' | 'failed';
  code: string;
  message: string;
  /** The file's line the entry is about (imports). */
  line?: number | null;
}

/** The report's lines of one chunk, in the chunk's transaction. */
export async function insertJobItems(db: Database, tx: Transaction, jobId: number, items: readonly JobItem[]) {
  for (let i = 0; i < items.length; i += 500) {
    const part = items.slice(i, i + 500);
    await db.sequelize.query(
      `INSERT INTO job_items (job_id, user_id, line, email, outcome, code, message) VALUES ${part
        .map(() => '(?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      {
        replacements: part.flatMap((item) => [
          jobId,
          item.userId,
          item.line ?? null,
          item.email.slice(0, 255),
          item.outcome,
          item.code,
          item.message.slice(0, 500),
        ]),
        type: QueryTypes.INSERT,
        transaction: tx,
      },
    );
  }
}
