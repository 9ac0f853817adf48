import { type BulkInput, type BulkReport, isBulkRoleOperation, type Job } from '@app/contracts';
import { codeSentence, mayNamePeople } from '../../domain/disclosure.js';
import { writeTransaction } from '../../db/transaction.js';
import { runBatch } from './bulk.chunk.js';
import { assertBulkRole } from './bulk.roles.js';
import { submitBulkJob } from './bulk-job.js';
import type { HandlerContext, HandlerCall } from '../../context.js';

/** Thrown to roll a dry run back after it computed its report with the real code path. */
class DryRun extends Error {
  constructor(readonly report: BulkReport) {
    super('dry run');
  }
}

type BulkIdsInput = BulkInput & { ids: number[] };

/**
 * POST /users/bulk: a list of ids is judged and applied in the request (200, the report); a
 * selection (every user a list query matches) becomes a job (202, the job).
 */
export function runBulk({ ctx, input }: HandlerCall<BulkInput>): Promise<BulkReport | { job: Job }> {
  if (input.selection) return submitBulkJob(ctx, { ...input, selection: input.selection });
  return runBulkIds(ctx, { ...input, ids: input.ids ?? [] });
}

/**
 * POST /users/bulk with ids: failing and missing ids are skipped with a reason and the rest are
 * applied in one transaction (all or none). A dry run runs the same code and rolls back.
 */
async function runBulkIds(ctx: HandlerContext, input: BulkIdsInput): Promise<BulkReport> {
  const { db } = ctx;
  try {
    return await writeTransaction(db, async (tx) => {
      // The role is one for every row: a missing one (422) or one beyond the caller (403) refuses the request.
      const role =
        isBulkRoleOperation(input.operation) && input.role_id !== undefined
          ? await assertBulkRole(ctx, tx, input.role_id)
          : undefined;
      const spec = { operation: input.operation, active: input.active, role };
      const { affected, skipped } = await runBatch(ctx, spec, input.ids, tx, { dryRun: input.dryRun });
      const report: BulkReport = {
        operation: input.operation,
        dryRun: input.dryRun,
        requested: input.ids.length,
        affected,
        // The caller named the ids; the rules' sentences name the users, for users.view holders only.
        skipped: mayNamePeople(ctx.actor) ? skipped : skipped.map((s) => ({ ...s, message: codeSentence(s.code) })),
      };
      // The dry run's locks and reads are rolled back with it.
      if (input.dryRun) throw new DryRun(report);
      return report;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.report;
    throw err;
  }
}
