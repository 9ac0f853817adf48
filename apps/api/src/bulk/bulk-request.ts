import type { Job } from '@app/contracts';
import type { HandlerCall, HandlerContext } from '../context.js';
import { writeTransaction } from '../db/transaction.js';
import type { AnyBulkDeclaration, BulkInputOf, BulkReportOf } from './bulk-declaration.js';
import { submitSelectionJob } from './selection-job.js';

/** Thrown to roll a dry run back after it computed its report with the real code path. */
class DryRun<Report> extends Error {
  constructor(readonly report: Report) {
    super('dry run');
  }
}

/**
 * The handler of a resource's bulk route (`POST /<resource>/bulk`): a list of ids is judged and
 * applied in the request, all or none (200, the report); a selection (every row a list query
 * matches) becomes a job (202, the job).
 */
export function bulkHandler<D extends AnyBulkDeclaration>(declaration: D) {
  return ({ ctx, input }: HandlerCall<BulkInputOf<D>>): Promise<BulkReportOf<D> | { job: Job }> => {
    if (input.selection) return submitSelectionJob(ctx, declaration, input, input.selection);
    return runOverIds(ctx, declaration, input, input.ids ?? []);
  };
}

/**
 * Ids in the request: the rows the rules refuse (or that are missing) are skipped with a reason
 * and the rest are changed in one transaction. A dry run runs the same code and rolls back, its
 * locks and reads with it.
 */
async function runOverIds<D extends AnyBulkDeclaration>(
  ctx: HandlerContext,
  declaration: D,
  input: BulkInputOf<D>,
  ids: readonly number[],
): Promise<BulkReportOf<D>> {
  try {
    return await writeTransaction(ctx.db, async (tx) => {
      // The arguments are one for every row: a refusal of theirs (403/422) refuses the request.
      const args = await declaration.prepare(ctx, tx, input);
      const work = { operation: input.operation, args, ids };
      const { outcome } = await declaration.batch(ctx, tx, work, { dryRun: input.dryRun });
      const report = declaration.report(ctx, input, outcome);
      if (input.dryRun) throw new DryRun(report);
      return report;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.report as BulkReportOf<D>;
    throw err;
  }
}
