import type { AuditListQuery, AuditListResult } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import { plainFilters } from '../../query/list-query-engine.js';
import type { Context } from '../../trpc/context.js';
import { auditPageIds, auditScope, auditTotal } from './audit.reads.js';
import { auditRowsByIds } from './audit.rows.js';

/** GET /audit: one page of events, newest first unless sorted otherwise, and its meta. */
export async function listAudit({
  ctx,
  input,
}: {
  ctx: Pick<Context, 'db'> & { actor: Actor };
  input: AuditListQuery;
}): Promise<AuditListResult> {
  const { db } = ctx;
  const offset = (input.page - 1) * input.perPage;
  const scope = await auditScope(db, input);
  const [ids, counted] = await Promise.all([
    auditPageIds(db, scope, input, input.perPage, offset),
    auditTotal(db, scope),
  ]);
  // A page past the bound proves at least its own rows: a lower bound never says less.
  const total = counted.exact ? counted.total : Math.max(counted.total, offset + ids.length);
  return {
    rows: await auditRowsByIds(db, ids),
    meta: {
      page: input.page,
      perPage: input.perPage,
      total,
      totalExact: counted.exact,
      pageCount: Math.ceil(total / input.perPage),
    },
    filters: plainFilters(input.filters),
  };
}
