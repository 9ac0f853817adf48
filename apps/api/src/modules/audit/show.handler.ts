import type { AuditShowResult, IdInput } from '@app/contracts';
import { notFound } from '../../errors.js';
import type { Context, HandlerCall } from '../../context.js';
import type { Actor } from '../../auth/actor.js';
import { auditRedactionFor } from './audit.redaction.js';
import { auditItem } from './audit.rows.js';

/** GET /audit/{id}: one event with every target and the context its writer recorded. */
export async function showAudit({
  ctx,
  input,
}: HandlerCall<IdInput, Pick<Context, 'db'> & { actor: Actor }>): Promise<AuditShowResult> {
  const redaction = await auditRedactionFor(ctx.db, ctx.actor);
  const item = await auditItem(ctx.db, input.id, { redaction, actor: ctx.actor });
  if (!item) throw notFound('The audit event');
  return { item };
}
