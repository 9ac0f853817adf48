import type { IdInput, PasswordResetAnswer } from '@app/contracts';
import type { HandlerCall } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { resetRefusal } from '../../domain/users.password-reset.js';
import { refusalError } from '../../errors.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { liveUser, targetOf } from '../../repositories/users.targets.js';
import { issueResetLink } from './password-reset.issue.js';

/**
 * POST /users/{id}/password-reset (202): an administrator sends a user a reset link, mailed (or
 * answered as `url` without mail). The user is judged under its row lock: live, active, under
 * the caller's ceiling. A newer link voids the earlier one; the current password keeps working
 * until the link is used.
 */
export async function sendPasswordReset({ ctx, input }: HandlerCall<IdInput>): Promise<PasswordResetAnswer> {
  const { db, config } = ctx;
  return writeTransaction(db, async (tx) => {
    const user = liveUser(await lockUsers(db, tx, [input.id]), input.id);
    const refusal = resetRefusal(ctx.actor, await targetOf(ctx, tx, user));
    if (refusal) throw refusalError(refusal);
    const issued = await issueResetLink(db, config, tx, user, ctx.actor.id);
    const expiresAt = issued.expiresAt.toISOString();
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'user.sendPasswordReset',
      targetType: 'user',
      targetIds: [user.id],
      context: { expires_at: expiresAt, mailed: issued.sent },
    });
    return {
      reset: { user_id: user.id, expires_at: expiresAt, sent: issued.sent },
      ...(issued.url ? { url: issued.url } : {}),
    };
  });
}
