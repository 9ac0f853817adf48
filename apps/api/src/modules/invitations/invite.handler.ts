import type { IdInput, InviteAnswer } from '@app/contracts';
import type { HandlerCall } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { inviteRefusal } from '../../domain/users.invite.js';
import { refusalError } from '../../errors.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { liveUser, targetOf } from '../../repositories/users.targets.js';
import { inviteUsers } from './invitations.issue.js';

/**
 * POST /users/{id}/invite (202): a single-use link to choose a password and sign in, mailed to
 * the user (or answered as `url` without mail). The user is judged under its row lock: live,
 * active, never signed in, under the caller's ceiling. A newer invitation voids the earlier one.
 */
export async function inviteUser({ ctx, input }: HandlerCall<IdInput>): Promise<InviteAnswer> {
  const { db } = ctx;
  return writeTransaction(db, async (tx) => {
    const user = liveUser(await lockUsers(db, tx, [input.id]), input.id);
    const target = await targetOf(ctx, tx, user);
    const refusal = inviteRefusal(ctx.actor, { ...target, signedIn: user.last_sign_in_at !== null });
    if (refusal) throw refusalError(refusal);
    const [invited] = await inviteUsers(ctx, tx, [user]);
    if (!invited) throw new Error('an invitation was judged and not issued');
    return {
      invitation: { user_id: user.id, expires_at: invited.expiresAt.toISOString(), sent: invited.sent },
      ...(invited.url ? { url: invited.url } : {}),
    };
  });
}
