import type { IdInput } from '@app/contracts';
import { readTwoFactor, replaceTwoFactor } from '../../auth/two-factor-store.js';
import type { HandlerCall } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { twoFactorRefusal } from '../../domain/two-factor.js';
import { refusalError } from '../../errors.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';

/**
 * DELETE /users/{id}/two-factor (204): an administrator takes away a user's second factor (a lost
 * phone), under the privilege ceiling, audited as `user.twoFactorReset`. The user signs in with
 * the password alone and, if a role requires it, is held at enrolment until they set up again.
 */
export async function resetTwoFactor({ ctx, input }: HandlerCall<IdInput>): Promise<void> {
  await writeTransaction(ctx.db, async (tx) => {
    const user = await accountWithinCeiling(ctx, tx, input.id);
    const stored = await readTwoFactor(ctx.db, tx, user.id);
    const refusal = twoFactorRefusal('reset', { hasSecret: stored.sealedSecret !== null, enrolled: stored.enrolled });
    if (refusal) throw refusalError(refusal);
    await replaceTwoFactor(ctx.db, tx, user.id, null);
    await recordChange(ctx.db, tx, {
      ...auditOriginOf(ctx),
      action: 'user.twoFactorReset',
      targetType: 'user',
      targetIds: [user.id],
      context: { was_enrolled: stored.enrolled },
    });
  });
}
