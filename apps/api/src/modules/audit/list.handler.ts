import type { AuditListQuery, AuditListResult } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { listPage, pageOffset } from '../../query/list-page.js';
import { plainFilters } from '../../query/list-query-engine.js';
import { auditPageIds, auditScope, auditTotal } from './audit.reads.js';
import { auditRedactionFor } from './audit.redaction.js';
import { auditRowsByIds } from './audit.rows.js';

/** GET /audit: one page of events, newest first unless sorted otherwise, and its meta. */
export async function listAudit({
  ctx,
  input,
}: {
  ctx: { db: Database; actor: Actor };
  input: AuditListQuery;
}): Promise<AuditListResult> {
  const { db } = ctx;
  const scope = await auditScope(db, input);
  const [ids, counted, redaction] = await Promise.all([
    auditPageIds(db, scope, input, input.perPage, pageOffset(input)),
    auditTotal(db, scope),
    auditRedactionFor(db, ctx.actor),
  ]);
  const rows = await auditRowsByIds(db, ids, { redaction, actor: ctx.actor });
  return { ...listPage(input, counted, ids, rows), filters: plainFilters(input.filters) };
}
