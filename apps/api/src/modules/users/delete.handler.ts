import type { IdInput } from '@app/contracts';
import { recordAudit } from '../../audit/audit.js';
import { writeTransaction } from '../../db/transaction.js';
import { toIso } from './users.read-repository.js';
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

/** DELETE /users/{id}: soft delete after self-delete, rule 3 and rule 4, in that order. */
export async function deleteUser({ ctx, input }: { ctx: WriteContext; input: IdInput }): Promise<void> {
  const { db, config } = ctx;
  await writeTransaction(db, async (tx) => {
    await lockAdministratorChanges(db, tx);
    const user = liveUser(await lockUsers(db, tx, [input.id]), input.id);
    const adminRoleId = await roleIdByName(db, tx, config.users.activation.adminRoleName);
    const admins = await activeAdminsInPlay(db, tx, adminRoleId, [user.id]);
    const violation = judge(ctx.actor, [{ kind: 'delete', target: toTarget(user) }], admins, config.users).get(user.id);
    if (violation) refuse(violation);
    const now = new Date();
    await updateMany(db, tx, [user.id], { deleted_at: now });
    await revokeCredentials(db, tx, [user.id]);
    await recordAudit(db, tx, {
      ...auditOrigin(ctx),
      action: 'user.delete',
      targetType: 'user',
      targetIds: [user.id],
      changes: { deleted_at: { before: null, after: toIso(now) } },
    });
  });
}
