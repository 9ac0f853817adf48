import type { Job } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { AppConfig } from '../../config.js';
import type { HandlerContext } from '../../context.js';
import type { Database } from '../../db/database.js';
import { bulkInverse, jobPermissions, lackingForJob, nothingToUndo } from '../../domain/jobs.rules.js';
import { AppError, forbidden } from '../../errors.js';
import { jobActor } from '../../jobs/job-actor.js';
import { recordJobEnd } from '../../jobs/job-end.js';
import { type ImportJobState, type JobRow, parseJson, type UndoJobParams } from '../../jobs/job-rows.js';
import { type JobItem, markUndone, readJob } from '../../jobs/job-store.js';
import { submitJob } from '../../jobs/job-submit.js';
import type { JobKindRunner } from '../../jobs/runner.js';
import { chunks } from '../../repositories/chunks.js';
import { lockBatch, runBatch } from './bulk.chunk.js';
import { recordChanges } from '../../bulk/bulk-changes.js';
import { bulkRole } from './bulk.roles.js';
import { TARGET_COLUMNS, type TargetRow, targetOf } from './users.batch-repository.js';
import type { BulkSpec } from '../../domain/users.bulk-plan.js';
import type { Target } from '../../domain/users.rules.js';
import { usersBulk } from './users.bulk.js';

/**
 * Undoing a bulk job (SPEC §14, "Mass changes"): a job of kind `undo` runs the opposite change
 * (domain/jobs.rules.ts `bulkInverse`) over the users the job's report says it changed, in the
 * report's order, through the same batch as any bulk change — the same rules, ceiling, audit and
 * events. A user whose version moved on since the job's write was changed since: left as it is
 * and reported `CHANGED_SINCE`. A dry run judges and counts, changes nothing, and leaves the
 * undo to be asked for.
 */

const notUndoable = (why: string) => new AppError('NOT_UNDOABLE', why);
const CHANGED_SINCE = 'Changed since the job: left as it is.';

interface BulkParams {
  active?: boolean | null;
  roleId?: number | null;
  roleName?: string | null;
}

/** The undo a finished bulk job allows, or why none (a 409 NOT_UNDOABLE). */
function undoOf(row: JobRow) {
  const nothing = nothingToUndo({ dryRun: Boolean(row.dry_run), changed: Number(row.changed) });
  if (nothing) throw notUndoable(nothing);
  if (row.status !== 'succeeded' && row.status !== 'cancelled' && row.status !== 'failed') {
    throw notUndoable(`The job is ${row.status}: it can be undone once it has ended.`);
  }
  const params = parseJson<BulkParams>(row.params, {});
  const operation = row.operation as Job['operation'];
  const inverse =
    operation && operation !== 'create' && operation !== 'upsert'
      ? bulkInverse(operation, params.active ?? null)
      : null;
  if (!inverse || !operation || operation === 'create' || operation === 'upsert') {
    throw notUndoable('This kind of change cannot be undone: erasures, invitations and attribute values stay.');
  }
  const state = parseJson<Partial<ImportJobState>>(row.state ?? '{}', {});
  if (state.undoneBy) throw notUndoable(`The job has already been undone (job ${state.undoneBy}).`);
  if (!state.undoUntil || Date.parse(state.undoUntil) <= Date.now()) {
    throw notUndoable('The time to undo this job is over.');
  }
  return { operation, inverse, params, state };
}

/** POST /jobs/{id}/undo of a bulk job: the undo job, queued (202); the job's row is locked while it is recorded on it. */
export async function submitBulkUndo(ctx: HandlerContext, jobId: number, dryRun: boolean): Promise<{ job: Job }> {
  const { db } = ctx;
  return submitJob(ctx, async (tx) => {
    const row = await readJob(db, jobId, tx);
    if (!row) throw new Error(`job ${jobId} vanished`);
    const { operation, inverse, params, state } = undoOf(row);
    const lacking = lackingForJob(ctx.actor, { kind: 'undo', undoes: operation, inverse: inverse.operation });
    if (lacking) throw forbidden(lacking);
    const [counted] = await db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM job_changes WHERE job_id = :jobId',
      { replacements: { jobId }, type: QueryTypes.SELECT, transaction: tx },
    );
    const undo: UndoJobParams = {
      of: jobId,
      bulk: {
        undoes: operation,
        operation: inverse.operation,
        active: inverse.active,
        roleId: params.roleId ?? null,
        roleName: params.roleName ?? null,
        scopes: ctx.auth?.via === 'token' ? (ctx.auth.scopes === null ? null : [...ctx.auth.scopes]) : null,
        tokenId: ctx.auth?.via === 'token' ? ctx.auth.tokenId : null,
      },
    };
    return {
      kind: 'undo',
      operation: inverse.operation,
      params: undo,
      dryRun,
      total: Number(counted?.n ?? 0),
      // A dry run only says what the undo would do: the undo itself is still to be asked for.
      ...(dryRun ? {} : { mark: (tx, undoId) => markUndone(db, tx, jobId, state, undoId) }),
      audit: { kind: 'undo', of: jobId, operation: inverse.operation, dryRun },
    };
  });
}

/** A user the job changed: the version its write left, and (a dry run's read) the user as it is now. */
interface ChangedLine extends Partial<TargetRow> {
  user_id: number | string;
  version: number | string | null;
  /** Null: erased since. */
  lock_version?: number | string | null;
}

/**
 * The next `size` users the job changed, after user `after`, with the version the job's write
 * left. A dry run reads each user as it is now in the same statement and locks nothing; the real
 * undo reads the report alone, then locks the users as every batch does (`lockBatch`).
 */
function changedAfter(db: Database, tx: Transaction, jobId: number, after: number, size: number, dryRun: boolean) {
  const users = TARGET_COLUMNS.filter((c) => c !== 'id').map((c) => `u.${c}`);
  return db.sequelize.query<ChangedLine>(
    dryRun
      ? `SELECT c.user_id, c.version, u.lock_version, ${users.join(', ')} FROM job_changes c
           LEFT JOIN users u ON u.id = c.user_id
          WHERE c.job_id = :jobId AND c.user_id > :after ORDER BY c.user_id LIMIT ${Number(size)}`
      : `SELECT user_id, version FROM job_changes
          WHERE job_id = :jobId AND user_id > :after ORDER BY user_id LIMIT ${Number(size)}`,
    { replacements: { jobId, after }, type: QueryTypes.SELECT, transaction: tx },
  );
}

/** Whether the user is as the job's write left it (`now`: its version now, absent once erased). */
const unchangedSince = (line: ChangedLine, now: number | string | null | undefined): boolean =>
  line.version !== null && now !== null && now !== undefined && Number(now) === Number(line.version);

async function changedSinceItems(db: Database, tx: Transaction, ids: readonly number[]): Promise<JobItem[]> {
  if (ids.length === 0) return [];
  const emails = new Map<number, string>();
  for (const part of chunks(ids)) {
    const rows = await db.sequelize.query<{ id: number | string; email: string }>(
      'SELECT id, email FROM users WHERE id IN (:ids)',
      { replacements: { ids: part }, type: QueryTypes.SELECT, transaction: tx },
    );
    for (const r of rows) emails.set(Number(r.id), r.email);
  }
  return ids.map((id) => ({
    userId: id,
    email: emails.get(id) ?? '',
    outcome: 'skipped' as const,
    code: 'CHANGED_SINCE',
    message: CHANGED_SINCE,
  }));
}

/** A dry run's state between chunks: administrators its earlier chunks would have taken away. */
interface DryRunState {
  adminsGone?: number;
}

/**
 * Judges (a dry run) or applies the opposite change to the users of `lines` still as the job left
 * them; `moved` are the others. A dry run judges the users as its read found them, counting the
 * administrators earlier chunks would have taken away; the real undo locks them first (the
 * administrators' turn, then the rows), so nobody changes one between its check and its write.
 */
async function undoLines(
  ctx: HandlerContext,
  job: JobRow,
  tx: Transaction,
  spec: BulkSpec,
  lines: ChangedLine[],
  of: number,
) {
  const context = { job_id: Number(job.id), undo_of: of };
  if (job.dry_run) {
    // One pass, no copies: at 10 000 users a chunk, spreading each line was a third of the API's time.
    const read = new Map<number, Target>();
    const moved: number[] = [];
    for (const line of lines) {
      const id = Number(line.user_id);
      if (unchangedSince(line, line.lock_version)) read.set(id, targetOf(id, line as TargetRow));
      else moved.push(id);
    }
    const adminsGone = parseJson<DryRunState>(job.state ?? '{}', {}).adminsGone ?? 0;
    const outcome = read.size
      ? await runBatch(ctx, spec, [...read.keys()], tx, { dryRun: true, context, read, adminsGone })
      : null;
    const state: DryRunState = { adminsGone: adminsGone + (outcome?.adminsRemoved ?? 0) };
    return { outcome, moved, state };
  }
  const ids = lines.map((l) => Number(l.user_id));
  const { targets, versions } = await lockBatch(ctx, spec, ids, tx);
  const moved = lines.filter((l) => !unchangedSince(l, versions.get(Number(l.user_id)))).map((l) => Number(l.user_id));
  for (const id of moved) targets.delete(id);
  const outcome = targets.size
    ? await runBatch(ctx, spec, [...targets.keys()], tx, { dryRun: false, context, locked: targets })
    : null;
  return { outcome, moved, state: undefined };
}

/** The chunk of a bulk job's undo: the opposite change over the next users the job changed. */
async function undoChunk(ctx: HandlerContext, job: JobRow, tx: Transaction, size: number, undo: UndoJobParams) {
  const { db } = ctx;
  const bulk = undo.bulk as NonNullable<UndoJobParams['bulk']>;
  const role = bulk.roleId === null ? undefined : await bulkRole(ctx, tx, bulk.roleId);
  if (role instanceof AppError) return { fail: role.message };
  const after = job.cursor_id === null ? 0 : Number(job.cursor_id);
  const lines = await changedAfter(db, tx, undo.of, after, size, Boolean(job.dry_run));
  const empty = { cursor: after, processed: 0, changed: 0, skipped: 0, failed: 0, counts: {} };
  if (lines.length === 0) return { progress: empty, items: [], done: true };
  const spec = { operation: bulk.operation, active: bulk.active ?? undefined, role };
  const { outcome, moved, state } = await undoLines(ctx, job, tx, spec, lines, undo.of);
  const skipped = outcome?.skipped ?? [];
  // The undo's own report names each user it put back, as any bulk job's does.
  await recordChanges(db, tx, Number(job.id), outcome?.changes ?? []);
  const counts: Record<string, number> = moved.length ? { CHANGED_SINCE: moved.length } : {};
  for (const s of skipped) counts[s.code] = (counts[s.code] ?? 0) + 1;
  return {
    progress: {
      cursor: Number(lines[lines.length - 1]?.user_id),
      processed: lines.length,
      changed: outcome ? outcome.affected.length - outcome.unchanged.length : 0,
      skipped: skipped.length + moved.length,
      failed: 0,
      counts,
      ...(state === undefined ? {} : { state }),
    },
    items: [...(await usersBulk.reportItems(db, tx, skipped)), ...(await changedSinceItems(db, tx, moved))],
    done: lines.length < size,
  };
}

/** Whether an undo job undoes a bulk job (its params name the change to run). */
export const undoesBulk = (job: JobRow): boolean =>
  parseJson<Partial<UndoJobParams>>(job.params, {}).bulk !== undefined;

/** The `undo` kind's runner for a bulk job's undo. */
export function bulkUndoKind(db: Database, config: AppConfig): JobKindRunner {
  return {
    async chunk(job, tx, size) {
      const undo = parseJson<UndoJobParams | null>(job.params, null);
      if (!undo?.bulk) return { fail: "The job's stored parameters cannot be read." };
      const permissions = jobPermissions({ kind: 'undo', undoes: undo.bulk.undoes, inverse: undo.bulk.operation });
      const ctx = await jobActor(db, config, job, permissions, undo.bulk);
      if ('fail' in ctx) return ctx;
      return undoChunk(ctx, job, tx, size, undo);
    },
    finished(job, status, tx) {
      return recordJobEnd(db, tx, job, status);
    },
  };
}
