import type { IdInput, UserItem } from '@app/contracts';
import { recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { toIso } from '../../db/sql-date.js';
import { lockTrashedUser } from './trashed-user.js';
import { updateMany } from './users.batch-repository.js';
import { toUserItem } from './users.item.js';
import { judge } from '../../domain/users.rules.js';
import { refuse } from '../../domain/users.rules.js';
import { targetOf } from '../../repositories/users.targets.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';

/** POST /users/{id}/restore: a deleted user back to the list, after the privilege ceiling. */
export async function restoreUser({ ctx, input }: HandlerCall<IdInput>): Promise<{ item: UserItem }> {
  const { db, config } = ctx;
  return writeTransaction(db, async (tx) => {
    const user = await lockTrashedUser(ctx, tx, input.id);
    const target = await targetOf(ctx, tx, user);
    const violation = judge(ctx.actor, [{ kind: 'restore', target }], new Set(), config.users).get(user.id);
    if (violation) refuse(violation);
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'user.restore',
      targetType: 'user',
      targetIds: [user.id],
      changes: { deleted_at: { before: toIso(user.deleted_at), after: null } },
    });
    // As the bulk restore does (a paranoid model's save would not clear deleted_at).
    await updateMany(db, tx, [user.id], { deleted_at: null });
    await user.reload({ transaction: tx, paranoid: false });
    return { item: toUserItem(user) };
  });
}
