import type { IdInput } from '@app/contracts';
import { recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { lockTrashedUser } from './trashed-user.js';
import { destroyMany } from './users.batch-repository.js';
import { judge } from '../../domain/users.rules.js';
import { refuse } from '../../domain/users.rules.js';
import { targetOf } from '../../repositories/users.targets.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';

/** DELETE /users/{id}/force: erases a deleted user for good, after the privilege ceiling. */
export async function forceDeleteUser({ ctx, input }: HandlerCall<IdInput>): Promise<void> {
  const { db, config } = ctx;
  await writeTransaction(db, async (tx) => {
    const user = await lockTrashedUser(ctx, tx, input.id);
    const target = await targetOf(ctx, tx, user);
    const violation = judge(ctx.actor, [{ kind: 'forceDelete', target }], new Set(), config.users).get(user.id);
    if (violation) refuse(violation);
    await destroyMany(db, tx, [user.id]);
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'user.force_delete',
      targetType: 'user',
      targetIds: [user.id],
      // As the bulk purge: nothing of the erased account's data stays behind in the trail.
      changes: { record: { before: 'deleted', after: 'erased' } },
    });
  });
}
