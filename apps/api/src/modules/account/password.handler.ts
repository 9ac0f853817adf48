import type { AccountPasswordInput, PasswordChanged } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { loginAttemptsBucket } from '../../auth/login-identity.js';
import { hashPassword, verifyPassword } from '../../auth/password.js';
import { clientBucketKey, hit, reset, tooManyAttempts } from '../../auth/rate-limit.js';
import type { HandlerCall } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { revokeOtherCredentials } from '../users/users.batch-repository.js';

const WRONG_CURRENT = 'Your current password is not correct.';

/**
 * PUT /account/password: one's own password, proven by the current one. The guesses spend the
 * sign-in's own counters (the client's network and the account's e-mail), so this door adds no
 * guesses to what the sign-in page allows. The new password is set only over the hash that was
 * verified (a change made meanwhile is not overwritten: 409), and — as every password change —
 * every other session and API token of the account ends, with the links mailed to it; the
 * session this request came with stays.
 */
export async function changeOwnPassword({ ctx, input }: HandlerCall<AccountPasswordInput>): Promise<PasswordChanged> {
  const { db, config, actor } = ctx;
  const windowMs = config.LOGIN_WINDOW_MINUTES * 60_000;
  const ipWindow = await hit(db, clientBucketKey('login-ip', ctx.ip), windowMs);
  if (ipWindow.hits > config.LOGIN_MAX_ATTEMPTS_PER_IP) throw tooManyAttempts(ipWindow);
  const bucket = loginAttemptsBucket(actor.email);
  const attempts = await hit(db, bucket, windowMs);
  if (attempts.hits > config.LOGIN_MAX_ATTEMPTS_PER_EMAIL) throw tooManyAttempts(attempts);

  const user = await db.models.User.scope('withPassword').findByPk(actor.id);
  const verified = user?.password_hash;
  if (!verified || !(await verifyPassword(input.current_password, verified))) {
    throw new AppError('VALIDATION_FAILED', WRONG_CURRENT, { errors: { current_password: [WRONG_CURRENT] } });
  }
  await reset(db, bucket);
  const passwordHash = await hashPassword(input.password);
  const revoked = await writeTransaction(db, async (tx) => {
    const [, changed] = await db.sequelize.query(
      `UPDATE users SET password_hash = :passwordHash, lock_version = lock_version + 1
        WHERE id = :id AND password_hash = :verified AND deleted_at IS NULL`,
      { replacements: { id: actor.id, passwordHash, verified }, type: QueryTypes.UPDATE, transaction: tx },
    );
    if (Number(changed) !== 1) {
      throw new AppError('VERSION_CONFLICT', 'Your password was changed meanwhile. Sign in again and retry.');
    }
    const ended = await revokeOtherCredentials(db, tx, actor.id, ctx.auth);
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'account.passwordChange',
      targetType: 'user',
      targetIds: [actor.id],
      context: { passwordChanged: true, ...ended },
    });
    return ended;
  });
  return { sessions_ended: revoked.sessionsEnded, tokens_revoked: revoked.tokensRevoked };
}
