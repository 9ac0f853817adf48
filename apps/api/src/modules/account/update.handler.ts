import type { Account, AccountUpdateInput } from '@app/contracts';
import type { HandlerCall } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { liveUser } from '../../repositories/users.targets.js';
import { RENAMED } from '../users/users.write-repository.js';
import { readAccount } from './account.item.js';

/**
 * PUT /account: one's own name, without users.update (SPEC §14 self-service). The e-mail and
 * everything else stay the administrators'. Audited as `account.update` with the change.
 */
export async function updateAccount({ ctx, input }: HandlerCall<AccountUpdateInput>): Promise<Account> {
  const { db } = ctx;
  return writeTransaction(db, async (tx) => {
    const user = liveUser(await lockUsers(db, tx, [ctx.actor.id]), ctx.actor.id);
    const before = user.name;
    if (before !== input.name) {
      user.set({ ...RENAMED, name: input.name, lock_version: user.lock_version + 1 });
      await user.save({ transaction: tx });
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: 'account.update',
        targetType: 'user',
        targetIds: [user.id],
        changes: diff({ name: before }, { name: input.name }),
      });
    }
    return readAccount(db, ctx.actor, tx);
  });
}
