import type { Job } from '@app/contracts';
import { type Model, type ModelStatic, Op, QueryTypes, type Transaction, type WhereOptions } from 'sequelize';
import type { AppConfig } from '../config.js';
import type { HandlerContext } from '../context.js';
import type { Database } from '../db/database.js';
import { jobActor } from '../jobs/job-actor.js';
import { recordJobEnd } from '../jobs/job-end.js';
import { parseJson } from '../jobs/job-rows.js';
import { submitJob } from '../jobs/job-submit.js';
import { recordChanges } from './bulk-changes.js';
import { type ChunkRow, dryRunReads } from './dry-run-reads.js';
import type { JobKindRunner } from '../jobs/runner.js';
import { selectSql } from '../query/list-reads.js';
import type { AnyBulkDeclaration, BulkInputOf } from './bulk-declaration.js';

/**
 * A bulk change over every row a list query matches, as a job of kind `bulk`: frozen at
 * submission (the query's filters and search, the ids left out, and the highest id then, so rows
 * created later are never swept in), then walked in id order by the job runner, one chunk per
 * transaction, by the declaration its `resource` names.
 */

/** The kit's keys in a selection job's `params`; a declaration's stored arguments sit beside them. */
const JOB_KEYS = ['resource', 'query', 'except', 'idBound', 'scopes', 'tokenId'] as const;

interface SelectionParams {
  /** Absent on the jobs of versions before the kit: they were all users'. */
  resource?: string;
  query: unknown;
  except: number[];
  idBound: number;
  /** The scopes of the token it came through (null: all of its owner's, or not a token). */
  scopes: string[] | null;
  /** The token it came through, for the audit rows' `via`. */
  tokenId: number | null;
}

/** The frozen selection's condition, past `after` (the last id a committed chunk covered). */
function selectionWhere(db: Database, declaration: AnyBulkDeclaration, params: SelectionParams, after: number | null) {
  const bounds: WhereOptions[] = [{ id: { [Op.lte]: params.idBound } }];
  if (after !== null) bounds.push({ id: { [Op.gt]: after } });
  if (params.except.length) bounds.push({ id: { [Op.notIn]: params.except } });
  const { selection } = declaration;
  return selection.where(db, selection.thaw(params.query), { [Op.and]: bounds });
}

async function highestId(model: ModelStatic<Model>): Promise<number> {
  const top = await model.max<number | string | null, Model>('id', { paranoid: false });
  return Number(top ?? 0);
}

/**
 * The job's total: the rows of the frozen selection. The list's own count answers it when it is
 * the same set: nothing left out, and no row past the bound once it was counted (a row added
 * before the count would be in it; one added after it, past the bound, is not). Else the rows
 * are counted. At a million users, counting the 820 000 active ones took 129 ms before every
 * selection's 202 (ten times that at ten million); the counters answer in one row.
 */
async function selectionTotal(
  db: Database,
  declaration: AnyBulkDeclaration,
  params: SelectionParams,
  query: unknown,
): Promise<number> {
  const model = declaration.selection.model(db);
  if (declaration.selection.count && params.except.length === 0) {
    const counted = await declaration.selection.count(db, query);
    if ((await highestId(model)) <= params.idBound) return counted;
  }
  return model.count({ where: selectionWhere(db, declaration, params, null), paranoid: false });
}

/** The params a submission's audit row keeps: the declaration's say over its own stored arguments. */
function auditedParams(
  declaration: AnyBulkDeclaration,
  args: unknown,
  params: Record<string, unknown>,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  if (!declaration.audited) return params;
  const kit = Object.fromEntries(Object.entries(params).filter(([key]) => !(key in stored)));
  return { ...kit, ...declaration.audited(args) };
}

/** POST /<resource>/bulk with a selection: the job, queued (202). The query is the list's, validated as such. */
export async function submitSelectionJob<D extends AnyBulkDeclaration>(
  ctx: HandlerContext,
  declaration: D,
  input: BulkInputOf<D>,
  selection: { query: unknown; except: number[] },
): Promise<{ job: Job }> {
  const { db } = ctx;
  const model = declaration.selection.model(db);
  declaration.selection.allow(ctx, selection.query);
  const query = declaration.selection.judge ? await declaration.selection.judge(ctx, selection.query) : selection.query;
  // Refused at the door as the request over ids refuses (each chunk asks again: recheck).
  const args = await declaration.prepare(ctx, undefined, input);
  const stored = declaration.store(args);
  const clash = JOB_KEYS.find((key) => key in stored);
  if (clash) throw new Error(`the ${declaration.resource} bulk declaration stores "${clash}", a key of the kit's own`);
  const params: SelectionParams & Record<string, unknown> = {
    ...stored,
    resource: declaration.resource,
    query: declaration.selection.freeze(query),
    except: selection.except,
    idBound: await highestId(model),
    // A token's job acts within the token's scopes, as the token would.
    scopes: ctx.auth?.via === 'token' ? (ctx.auth.scopes === null ? null : [...ctx.auth.scopes]) : null,
    tokenId: ctx.auth?.via === 'token' ? ctx.auth.tokenId : null,
  };
  // Counted once at submission: the progress bar's total.
  const total = await selectionTotal(db, declaration, params, declaration.selection.thaw(params.query));
  return submitJob(ctx, async () => ({
    kind: 'bulk',
    operation: input.operation,
    params,
    dryRun: input.dryRun,
    total,
    audit: {
      kind: 'bulk',
      operation: input.operation,
      dryRun: input.dryRun,
      total,
      ...auditedParams(declaration, args, params, stored),
    },
  }));
}

/**
 * The next chunk's rows in id order, read in the chunk's transaction (`tx`), or outside any for a
 * dry run's read ahead; never from a replica. Rows as the driver returns them: Sequelize's copy
 * of each row was a tenth of a second of a dry run over 820 000 users, and garbage besides.
 */
async function nextChunk(
  db: Database,
  tx: Transaction | null,
  declaration: AnyBulkDeclaration,
  params: SelectionParams,
  after: number | null,
  size: number,
) {
  const { selection } = declaration;
  const sql = selectSql(db, selection.model(db), {
    attributes: [...selection.columns],
    where: selectionWhere(db, declaration, params, after),
    order: [['id', 'ASC']],
    limit: size,
    paranoid: false,
    ...(await selection.hints(db, selection.thaw(params.query))),
  });
  const [rows] = await db.sequelize.query(sql, { type: QueryTypes.RAW, ...(tx ? { transaction: tx } : {}) });
  return rows as ChunkRow[];
}

/** The `bulk` kind for the job runner: one chunk of the frozen selection per call, by its resource's declaration. */
export function selectionJobKind(
  db: Database,
  config: AppConfig,
  declarations: readonly AnyBulkDeclaration[],
): JobKindRunner {
  const byResource = new Map(declarations.map((d) => [d.resource, d]));
  const dryRuns = dryRunReads(db.dialect);
  return {
    async chunk(job, tx, size) {
      const params = parseJson<(SelectionParams & Record<string, unknown>) | null>(job.params, null);
      const declaration = byResource.get(params?.resource ?? 'users');
      const operation = job.operation;
      if (!params || !operation || !declaration) return { fail: "The job's stored parameters cannot be read." };
      const ctx = await jobActor(db, config, job, declaration.permissions(operation), params);
      if ('fail' in ctx) return ctx;
      // Asked again at each chunk: a role may have been deleted, or the submitter lost a permission.
      const checked = await declaration.recheck(ctx, tx, params);
      if ('fail' in checked) return checked;
      const { args } = checked;
      const after = job.cursor_id === null ? null : Number(job.cursor_id);
      const dryRun = Boolean(job.dry_run);
      const jobId = Number(job.id);
      const read = (on: Transaction | null, from: number | null) => nextChunk(db, on, declaration, params, from, size);
      const rows = dryRun ? await dryRuns.take(jobId, tx, (on) => read(on, after), after, size) : await read(tx, after);
      const empty = { cursor: after, processed: 0, changed: 0, skipped: 0, failed: 0, counts: {} };
      if (rows.length === 0) return { progress: empty, items: [], done: true };
      const ids = rows.map((r) => Number(r.id));
      const last = ids[ids.length - 1] as number;
      if (dryRun && rows.length === size) dryRuns.readAhead(jobId, (on) => read(on, last), last, size);
      // A dry run judges the rows as this read found them; a real chunk locks them again and reads
      // them under the lock (a row may have changed since this unlocked read).
      const options = dryRun
        ? { dryRun, context: { job_id: Number(job.id) }, read: rows, state: parseJson(job.state ?? 'null', undefined) }
        : { dryRun, context: { job_id: Number(job.id) } };
      const { outcome, state } = await declaration.batch(ctx, tx, { operation, args, ids }, options);
      // Each user it changed, for the report and an undo, in the chunk's transaction.
      await recordChanges(db, tx, Number(job.id), outcome.changes ?? []);
      const counts: Record<string, number> = {};
      for (const s of outcome.skipped) counts[s.code] = (counts[s.code] ?? 0) + 1;
      return {
        progress: {
          cursor: last,
          processed: ids.length,
          changed: outcome.affected.length - outcome.unchanged.length,
          skipped: outcome.skipped.length,
          failed: 0,
          counts,
          ...(state === undefined ? {} : { state }),
        },
        items: await declaration.reportItems(db, tx, outcome.skipped),
        done: ids.length < size,
      };
    },
    finished(job, status, tx) {
      dryRuns.forget(Number(job.id));
      // A real job can be undone while its record is kept (JOBS_RETENTION_DAYS), however it
      // ended: a failed or cancelled one changed the users its chunks committed.
      const params = parseJson<(SelectionParams & Record<string, unknown>) | null>(job.params, null);
      const declaration = byResource.get(params?.resource ?? 'users');
      const undoable =
        !job.dry_run &&
        job.operation !== null &&
        params !== null &&
        declaration?.undoable(job.operation, params) === true;
      const until = new Date(Date.now() + config.JOBS_RETENTION_DAYS * 86_400_000).toISOString();
      return recordJobEnd(db, tx, job, status, undoable ? (state) => ({ ...state, undoUntil: until }) : undefined);
    },
  };
}
