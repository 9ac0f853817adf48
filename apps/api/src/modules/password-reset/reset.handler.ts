import type { EmptyAnswer, LinkPasswordInput } from '@app/contracts';
import { hashPassword } from '../../auth/password.js';
import { passwordResetCounters } from '../../auth/password-reset-metrics.js';
import { usableLink, useLink } from '../../auth/user-links.js';
import type { Context, HandlerCall } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { canResetPassword } from '../../domain/users.password-reset.js';
import { recordChange } from '../../journal/journal.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { toTarget } from '../../repositories/users.targets.js';
import { revokeOtherCredentials } from '../users/users.batch-repository.js';
import { invalidToken } from '../invitations/accept.handler.js';

/**
 * POST /auth/password/reset (200 `{}`): sets the password through a mailed reset link. The link
 * works once, for the user it was sent to, while that account is live and active; used, expired,
 * voided, tampered and invitation links all get the same 422 INVALID_TOKEN with nothing changed.
 * As any password change does, it ends every session and API token of the user and voids every
 * other link mailed to them. Nobody is signed in: the person signs in with the new password, and
 * a second factor, when the account has one, is asked there.
 */
export async function resetPassword({ ctx, input }: HandlerCall<LinkPasswordInput, Context>): Promise<EmptyAnswer> {
  const { db } = ctx;
  // Hashed before the transaction: the hash is the slow part, and holds no lock.
  const passwordHash = await hashPassword(input.password);
  await writeTransaction(db, async (tx) => {
    const now = new Date();
    const link = await usableLink(db, tx, input.token, 'password_reset', now);
    if (!link) throw invalidToken();
    const user = (await lockUsers(db, tx, [link.userId])).get(link.userId);
    if (!user || !canResetPassword(toTarget(user))) throw invalidToken();
    await useLink(db, tx, link.id, now);
    user.set({ password_hash: passwordHash, lock_version: user.lock_version + 1 });
    await user.save({ transaction: tx });
    const revoked = await revokeOtherCredentials(db, tx, user.id, null);
    await recordChange(db, tx, {
      actorId: user.id,
      action: 'auth.passwordReset',
      targetType: 'user',
      targetIds: [user.id],
      context: { passwordChanged: true, ...revoked },
      ip: ctx.ip,
      requestId: ctx.requestId,
      via: { kind: 'session' },
    });
  });
  passwordResetCounters.completed.inc();
  return {};
}
