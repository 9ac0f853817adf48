import type { IdInput } from '@app/contracts';
import { recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { toIso } from '../../db/sql-date.js';
import { lockForAdminRemoval } from '../../repositories/users.admin-turn.js';
import { judge } from '../../domain/users.rules.js';
import { refuse } from '../../domain/users.rules.js';
import { targetOf } from '../../repositories/users.targets.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';
import { revokeCredentials, updateMany } from './users.batch-repository.js';
import { clearReferencesTo } from '../attributes/attribute-references.js';

/** DELETE /users/{id}: soft delete after the ceiling, self-delete, rule 3 and rule 4, in that order;
 * the values of `user` attributes that name the user are cleared with it. */
export async function deleteUser({ ctx, input }: HandlerCall<IdInput>): Promise<void> {
  const { db, config } = ctx;
  await writeTransaction(db, async (tx) => {
    const { user, admins } = await lockForAdminRemoval(db, tx, input.id, config.users.activation.adminRoleName);
    const target = await targetOf(ctx, tx, user);
    const violation = judge(ctx.actor, [{ kind: 'delete', target }], admins, config.users).get(user.id);
    if (violation) refuse(violation);
    const now = new Date();
    await updateMany(db, tx, [user.id], { deleted_at: now });
    await revokeCredentials(db, tx, [user.id]);
    await clearReferencesTo(ctx, tx, [user.id]);
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'user.delete',
      targetType: 'user',
      targetIds: [user.id],
      changes: { deleted_at: { before: null, after: toIso(now) } },
    });
  });
}
