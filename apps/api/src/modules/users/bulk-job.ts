import {
  type BulkInput,
  type BulkOperation,
  type BulkSelection,
  isBulkRoleOperation,
  type Job,
  type UsersListQuery,
} from '@app/contracts';
import { Op, QueryTypes, type Transaction, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import type { AppConfig } from '../../config.js';
import { type BulkJobParams, parseJson, toJob } from '../../jobs/job-rows.js';
import { insertJob, type JobItem, readJob } from '../../jobs/job-store.js';
import type { JobKindRunner } from '../../jobs/runner.js';
import { selectSql } from '../../query/list-reads.js';
import { recordChange } from '../../journal/journal.js';
import { type BatchOutcome, runBatch } from './bulk.chunk.js';
import { TARGET_COLUMNS, type TargetRow, targetsOf } from './users.batch-repository.js';
import type { Target } from '../../domain/users.rules.js';
import type { RoleGrant } from '../../domain/escalation.js';
import { assertTrashAllowed, orderedReadHints, usersWhere } from './users.list-query.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerContext } from '../../context.js';
import { assertBulkRole, bulkRole } from './bulk.roles.js';
import { AppError } from '../../errors.js';
import { jobActor } from '../../jobs/job-actor.js';
import { jobPermissions } from '../../domain/jobs.rules.js';
import { recordJobEnd } from '../../jobs/job-end.js';

/**
 * A bulk change over every user a list query matches, as a job: frozen at submission (the
 * query's filters and search, the ids left out, and the highest user id then), then walked in id
 * order by the job runner, one chunk per transaction (`runBulkChunk`).
 */

/** The frozen selection's condition, past `after` (the last id a committed chunk covered). */
export function selectionWhere(db: Database, params: BulkJobParams, after: number | null): WhereOptions {
  const query = frozenQuery(params);
  const bounds: WhereOptions[] = [{ id: { [Op.lte]: params.idBound } }];
  if (after !== null) bounds.push({ id: { [Op.gt]: after } });
  if (params.except.length) bounds.push({ id: { [Op.notIn]: params.except } });
  return usersWhere(db, query, { [Op.and]: bounds });
}

/** The stored query as the list engine reads it, walked in id order. */
function frozenQuery(params: BulkJobParams): UsersListQuery {
  // Stored as validated at submission: its filter values are plain JSON (text, numbers, ISO instants).
  return {
    q: params.query.q,
    filters: params.query.filters,
    page: 1,
    perPage: 1,
    perPageRequested: null,
    sort: 'id',
    dir: 'asc',
    order: [['id', 'asc']],
  } as unknown as UsersListQuery;
}

async function highestUserId(db: Database): Promise<number> {
  const [row] = await db.sequelize.query<{ top: number | string | null }>('SELECT MAX(id) AS top FROM users', {
    type: QueryTypes.SELECT,
  });
  return Number(row?.top ?? 0);
}

/** Every user the frozen selection matches, counted once at submission (the progress bar's total). */
async function countSelection(db: Database, params: BulkJobParams): Promise<number> {
  return db.models.User.count({ where: selectionWhere(db, params, null), paranoid: false });
}

/** POST /users/bulk with a selection: the job, queued (202). The query is the list's, validated as such. */
export async function submitBulkJob(
  ctx: HandlerContext,
  input: BulkInput & { selection: BulkSelection },
): Promise<{ job: Job }> {
  const { db } = ctx;
  const { query, except } = input.selection;
  assertTrashAllowed(ctx.actor, query);
  // Refused at the door as the synchronous route refuses (each chunk asks again: see chunk()).
  const role =
    isBulkRoleOperation(input.operation) && input.role_id !== undefined
      ? await assertBulkRole(ctx, undefined, input.role_id)
      : null;
  const params: BulkJobParams = {
    active: input.operation === 'setActive' ? (input.active ?? null) : null,
    roleId: role?.id ?? null,
    roleName: role?.name ?? null,
    query: { q: query.q, filters: query.filters as Record<string, unknown> },
    except,
    idBound: await highestUserId(db),
    // A token's job acts within the token's scopes, as the token would.
    scopes: ctx.auth?.via === 'token' ? (ctx.auth.scopes === null ? null : [...ctx.auth.scopes]) : null,
    tokenId: ctx.auth?.via === 'token' ? ctx.auth.tokenId : null,
  };
  const total = await countSelection(db, params);
  const origin = auditOriginOf(ctx);
  const id = await writeTransaction(db, async (tx) => {
    const jobId = await insertJob(db, tx, {
      kind: 'bulk',
      operation: input.operation,
      params,
      dryRun: input.dryRun,
      total,
      actorId: origin.actorId,
      via: origin.via ?? null,
      ip: origin.ip,
      requestId: origin.requestId,
    });
    await recordChange(db, tx, {
      ...origin,
      action: 'job.submit',
      targetType: 'job',
      targetIds: [jobId],
      context: { kind: 'bulk', operation: input.operation, dryRun: input.dryRun, total, ...params },
    });
    return jobId;
  });
  const row = await readJob(db, id);
  if (!row) throw new Error(`job ${id} vanished after it was created`);
  return { job: toJob(row) };
}

/** The next chunk's users in id order, read in the chunk's transaction (never from a replica). */
async function nextChunk(
  db: Database,
  tx: Transaction,
  params: BulkJobParams,
  after: number | null,
  size: number,
): Promise<TargetRow[]> {
  const query = frozenQuery(params);
  const sql = selectSql(db, db.models.User, {
    attributes: [...TARGET_COLUMNS],
    where: selectionWhere(db, params, after),
    order: [['id', 'ASC']],
    limit: size,
    paranoid: false,
    ...orderedReadHints(db, query),
  });
  return db.sequelize.query<TargetRow>(sql, { type: QueryTypes.SELECT, transaction: tx });
}

/** Report lines for a chunk's skipped users, with the e-mail each had when it was judged. */
export async function reportItems(db: Database, tx: Transaction, outcome: BatchOutcome): Promise<JobItem[]> {
  if (outcome.skipped.length === 0) return [];
  const rows = await db.sequelize.query<{ id: number | string; email: string }>(
    'SELECT id, email FROM users WHERE id IN (:ids)',
    { replacements: { ids: outcome.skipped.map((s) => s.id) }, type: QueryTypes.SELECT, transaction: tx },
  );
  const emails = new Map(rows.map((r) => [Number(r.id), r.email]));
  return outcome.skipped.map((s) => ({
    userId: s.id,
    email: emails.get(s.id) ?? '',
    outcome: 'skipped',
    code: s.code,
    message: s.message,
  }));
}

/** One chunk of a bulk job, in the chunk's transaction: judged and (unless a dry run) applied. */
export function runBulkChunk(
  ctx: HandlerContext,
  job: {
    id: number;
    operation: BulkInput['operation'];
    dryRun: boolean;
    params: BulkJobParams;
    adminsGone: number;
    role?: RoleGrant | undefined;
  },
  ids: readonly number[],
  tx: Transaction,
  read?: Map<number, Target>,
): Promise<BatchOutcome> {
  const spec = { operation: job.operation, active: job.params.active ?? undefined, role: job.role };
  const context = { job_id: job.id };
  return runBatch(
    ctx,
    spec,
    ids,
    tx,
    job.dryRun ? { dryRun: true, context, adminsGone: job.adminsGone, read } : { dryRun: false, context },
  );
}

/**
 * What a bulk job carries between chunks: for a dry run, how many administrators its earlier
 * chunks would have taken away (a real run's chunks take them away, so the database says it).
 */
interface BulkJobState {
  adminsGone: number;
}

/** The `bulk` kind for the job runner: one chunk of the frozen selection per call. */
export function bulkJobKind(db: Database, config: AppConfig): JobKindRunner {
  return {
    async chunk(job, tx, size) {
      const params = parseJson<BulkJobParams | null>(job.params, null);
      const operation = job.operation as BulkOperation | null;
      if (!params || !operation) return { fail: "The job's stored parameters cannot be read." };
      const ctx = await jobActor(db, config, job, jobPermissions({ kind: 'bulk', operation }), params);
      if ('fail' in ctx) return ctx;
      // Asked again at each chunk: the role may have been deleted, or the submitter lost one of its permissions.
      const role = params.roleId ? await bulkRole(ctx, tx, params.roleId) : undefined;
      if (role instanceof AppError) return { fail: role.message };
      const after = job.cursor_id === null ? null : Number(job.cursor_id);
      const rows = await nextChunk(db, tx, params, after, size);
      const empty = { cursor: after, processed: 0, changed: 0, skipped: 0, failed: 0, counts: {} };
      if (rows.length === 0) return { progress: empty, items: [], done: true };
      const ids = rows.map((r) => Number(r.id));
      const id = Number(job.id);
      const dryRun = Boolean(job.dry_run);
      const state = parseJson<Partial<BulkJobState>>(job.state ?? '{}', {});
      const adminsGone = dryRun ? Number(state.adminsGone ?? 0) : 0;
      // A dry run judges the rows as this read found them; a real chunk locks them again and reads
      // them under the lock (a row may have changed since this unlocked read).
      const read = dryRun ? targetsOf(rows) : undefined;
      const outcome = await runBulkChunk(ctx, { id, operation, dryRun, params, adminsGone, role }, ids, tx, read);
      const counts: Record<string, number> = {};
      for (const s of outcome.skipped) counts[s.code] = (counts[s.code] ?? 0) + 1;
      return {
        progress: {
          cursor: ids[ids.length - 1] as number,
          processed: ids.length,
          changed: outcome.affected.length - outcome.unchanged.length,
          skipped: outcome.skipped.length,
          failed: 0,
          counts,
          ...(dryRun ? { state: { adminsGone: adminsGone + outcome.adminsRemoved } satisfies BulkJobState } : {}),
        },
        items: await reportItems(db, tx, outcome),
        done: ids.length < size,
      };
    },
    finished(job, status, tx) {
      return recordJobEnd(db, tx, job, status);
    },
  };
}
