import type { AuthSession, LinkPasswordInput } from '@app/contracts';
import { loadActor } from '../../auth/actor.js';
import { hashPassword } from '../../auth/password.js';
import { usableLink, useLink, voidLinks } from '../../auth/user-links.js';
import type { Context, HandlerCall } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { recordChange } from '../../journal/journal.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { openSession } from '../auth/login.handler.js';
import { toAuthSession } from '../auth/auth.session.js';

/** One answer for a link that is unknown, used, expired, voided or for an account that cannot sign in. */
export const invalidToken = () => new AppError('INVALID_TOKEN');

/**
 * POST /auth/invitations/accept: the invited person chooses a password through the mailed link
 * and is signed in, as `POST /auth/login` answers. The link works once; it is refused (422
 * INVALID_TOKEN, nothing changed) when used, expired, voided by a newer invitation, a password
 * change or a deactivation, or when the account is no longer live and active.
 */
export async function acceptInvitation({ ctx, input }: HandlerCall<LinkPasswordInput, Context>): Promise<AuthSession> {
  const { db } = ctx;
  // Hashed before the transaction: the hash is the slow part, and holds no lock.
  const passwordHash = await hashPassword(input.password);
  const userId = await writeTransaction(db, async (tx) => {
    const now = new Date();
    const link = await usableLink(db, tx, input.token, 'invitation', now);
    if (!link) throw invalidToken();
    const user = (await lockUsers(db, tx, [link.userId])).get(link.userId);
    if (!user || user.deleted_at || !user.is_active) throw invalidToken();
    await useLink(db, tx, link.id, now);
    // A reset link sent meanwhile would set the password again.
    await voidLinks(db, tx, [user.id], ['password_reset'], now);
    user.set({ password_hash: passwordHash, invitation_accepted_at: now, lock_version: user.lock_version + 1 });
    await user.save({ transaction: tx });
    await recordChange(db, tx, {
      actorId: user.id,
      action: 'auth.invitationAccept',
      targetType: 'user',
      targetIds: [user.id],
      ip: ctx.ip,
      requestId: ctx.requestId,
      via: { kind: 'session' },
    });
    return user.id;
  });
  const actor = await loadActor(db, { userId });
  if (!actor) throw invalidToken();
  await openSession(ctx, userId);
  return toAuthSession(actor);
}
