import type { AuditShowResult, IdInput } from '@app/contracts';
import { notFound } from '../../errors.js';
import type { Context, HandlerCall } from '../../context.js';
import { auditItem } from './audit.rows.js';

/** GET /audit/{id}: one event with every target and the context its writer recorded. */
export async function showAudit({ ctx, input }: HandlerCall<IdInput, Pick<Context, 'db'>>): Promise<AuditShowResult> {
  const item = await auditItem(ctx.db, input.id);
  if (!item) throw notFound('The audit event');
  return { item };
}
