import type { IdInput, SetActiveInput, UserItem } from '@app/contracts';
import { diff, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { lockForAdminRemoval } from '../../repositories/users.admin-turn.js';
import { toUserItem } from './users.item.js';
import { judge } from '../../domain/users.rules.js';
import { liveUser, targetOf } from '../../repositories/users.targets.js';
import { refuse } from '../../domain/users.rules.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';
import { revokeCredentials } from './users.batch-repository.js';
import { lockUsers } from '../../repositories/users.locks.js';

/** PATCH /users/{id}/active: the ceiling and rules 1 and 2 judged under lock, the change, its audit row and revocations in one transaction. */
export async function setUserActive({
  ctx,
  input,
}: HandlerCall<IdInput & SetActiveInput>): Promise<{ item: UserItem }> {
  const { db, config } = ctx;
  return writeTransaction(db, async (tx) => {
    const { user, admins } = input.active
      ? { user: liveUser(await lockUsers(db, tx, [input.id]), input.id), admins: new Set<number>() }
      : await lockForAdminRemoval(db, tx, input.id, config.users.activation.adminRoleName);
    const violation = judge(
      ctx.actor,
      [{ kind: 'setActive', target: await targetOf(ctx, tx, user), active: input.active }],
      admins,
      config.users,
    ).get(user.id);
    if (violation) refuse(violation);
    const before = { is_active: Boolean(user.is_active) };
    if (before.is_active !== input.active) {
      if (!input.active) await revokeCredentials(db, tx, [user.id]);
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: input.active ? 'user.activate' : 'user.deactivate',
        targetType: 'user',
        targetIds: [user.id],
        changes: diff(before, { is_active: input.active }),
      });
      // Last: the status change fires the stats trigger, whose one row every status change
      // waits for until commit, so nothing else runs while this transaction holds it.
      user.set({ is_active: input.active, lock_version: user.lock_version + 1 });
      await user.save({ transaction: tx });
    }
    return { item: toUserItem(user) };
  });
}
