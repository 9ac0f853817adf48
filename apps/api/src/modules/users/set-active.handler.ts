import type { IdInput, SetActiveInput, UserItem } from '@app/contracts';
import { diff, recordAudit } from '../../audit/audit.js';
import { writeTransaction } from '../../db/transaction.js';
import { toUserItem } from './users.item.js';
import { judge } from './users.rules.js';
import { auditOrigin, liveUser, refuse, toTarget, type WriteContext } from './users.write-support.js';
import {
  activeAdminsInPlay,
  lockAdministratorChanges,
  lockUsers,
  revokeCredentials,
  roleIdByName,
  updateMany,
} from './users.write-repository.js';

/** PATCH /users/{id}/active: rules 1 and 2 judged under lock, the change, its audit row and revocations in one transaction. */
export async function setUserActive({
  ctx,
  input,
}: {
  ctx: WriteContext;
  input: IdInput & SetActiveInput;
}): Promise<{ item: UserItem }> {
  const { db, config } = ctx;
  return writeTransaction(db, async (tx) => {
    if (!input.active) await lockAdministratorChanges(db, tx);
    const user = liveUser(await lockUsers(db, tx, [input.id]), input.id);
    const admins = input.active
      ? new Set<number>()
      : await activeAdminsInPlay(db, tx, await roleIdByName(db, tx, config.users.activation.adminRoleName), [user.id]);
    const violation = judge(
      ctx.actor,
      [{ kind: 'setActive', target: toTarget(user), active: input.active }],
      admins,
      config.users,
    ).get(user.id);
    if (violation) refuse(violation);
    const before = { is_active: Boolean(user.is_active) };
    if (before.is_active !== input.active) {
      await updateMany(db, tx, [user.id], { is_active: input.active });
      if (!input.active) await revokeCredentials(db, tx, [user.id]);
      await recordAudit(db, tx, {
        ...auditOrigin(ctx),
        action: input.active ? 'user.activate' : 'user.deactivate',
        targetType: 'user',
        targetIds: [user.id],
        changes: diff(before, { is_active: input.active }),
      });
    }
    await user.reload({ transaction: tx, paranoid: false });
    return { item: toUserItem(user) };
  });
}
