import type { Job, JobUndoInput } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { jobPermissions, lackingForJob } from '../../domain/jobs.rules.js';
import { AppError, forbidden } from '../../errors.js';
import { type ImportJobState, parseJson, type UndoJobParams } from '../../jobs/job-rows.js';
import { markUndone } from '../../jobs/job-store.js';
import { submitJob } from '../../jobs/job-submit.js';
import { visibleJob } from '../jobs/jobs.access.js';
import { submitBulkUndo } from '../users/bulk.undo.js';
import type { HandlerContext, HandlerCall } from '../../context.js';

const notUndoable = (why: string) => new AppError('NOT_UNDOABLE', why);

/** What the import changed: whether it created accounts (undone by removing them) and updated some. */
async function changesOf(ctx: HandlerContext, jobId: number): Promise<{ created: boolean; updated: boolean }> {
  const rows = await ctx.db.sequelize.query<{ change: string; n: number | string }>(
    'SELECT `change`, COUNT(*) AS n FROM import_changes WHERE job_id = :jobId GROUP BY `change`',
    { replacements: { jobId }, type: QueryTypes.SELECT },
  );
  const has = (change: string) => rows.some((r) => r.change === change && Number(r.n) > 0);
  return { created: has('created'), updated: has('updated') };
}

/**
 * POST /jobs/{id}/undo: queues the undo of a finished import (202), within its undo window and
 * once: the import's row is locked while the undo is recorded on it, so two asking at once get
 * one undo and one 409. A dry run (`dryRun`) judges every account as the undo would, changes
 * none, and leaves the undo to be asked for.
 */
export async function undoImport({ ctx, input }: HandlerCall<JobUndoInput>): Promise<{ job: Job }> {
  const { db } = ctx;
  // Any job that changed users can be undone: a bulk job by the opposite change (bulk.undo.ts).
  if ((await visibleJob(db, ctx.actor, input.id)).kind === 'bulk') return submitBulkUndo(ctx, input.id, input.dryRun);
  const changes = await changesOf(ctx, input.id);
  const asked = { kind: 'undo', removes: changes.created, restores: changes.updated } as const;
  const lacking = lackingForJob(ctx.actor, asked);
  const { dryRun } = input;
  return submitJob(ctx, async (tx) => {
    const row = await visibleJob(db, ctx.actor, input.id, tx);
    if (row.kind !== 'import') throw notUndoable('Only an import can be undone.');
    if (row.dry_run) throw notUndoable('A dry run changed nothing: there is nothing to undo.');
    if (row.status !== 'succeeded' && row.status !== 'cancelled') {
      throw notUndoable(`The import is ${row.status}: it can be undone once it has finished.`);
    }
    const state = parseJson<Partial<ImportJobState>>(row.state ?? '{}', {});
    if (state.undoneBy) throw notUndoable(`The import has already been undone (job ${state.undoneBy}).`);
    if (!state.undoUntil || Date.parse(state.undoUntil) <= Date.now()) {
      throw notUndoable('The time to undo this import is over.');
    }
    if (jobPermissions(asked).length === 0)
      throw notUndoable('The import changed no account: there is nothing to undo.');
    if (lacking) throw forbidden(lacking);
    const params: UndoJobParams = { of: input.id, changes };
    const [counted] = await db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM import_changes WHERE job_id = :jobId',
      { replacements: { jobId: input.id }, type: QueryTypes.SELECT, transaction: tx },
    );
    return {
      kind: 'undo',
      operation: null,
      params,
      dryRun,
      total: Number(counted?.n ?? 0),
      // A dry run only says what the undo would do: the undo itself is still to be asked for.
      ...(dryRun ? {} : { mark: (tx, undoId) => markUndone(db, tx, input.id, state, undoId) }),
      audit: { kind: 'undo', of: input.id, dryRun },
    };
  });
}
