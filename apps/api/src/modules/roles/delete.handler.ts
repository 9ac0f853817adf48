import type { IdInput, RoleDeleteQuery } from '@app/contracts';
import { lastHolderGuard } from '../../repositories/permission-holders.js';
import { writeTransaction } from '../../db/transaction.js';
import { judgeRoleChange } from '../../domain/roles.rules.js';
import { lockAdministratorChanges } from '../../repositories/users.locks.js';
import { notFound } from '../../errors.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';
import { deleteRoleRows, grantedPermissions, lockRole, membersOf } from './roles.write-repository.js';
import { refuseRole, roleInUse } from './roles.write-support.js';

/** At most this many detached member ids travel in the audit row; `detached` counts them all. */
const DETACHED_IDS_KEPT = 1_000;

/**
 * DELETE /roles/{id}: under the administrators' turn and the role's row lock, the rules (403,
 * 422 ROLE_PROTECTED for the administrator role); a role given to users needs `detach=true`
 * (409 ROLE_IN_USE naming how many), and is then taken from each of them in the same
 * transaction — refused (422 LAST_ADMIN) when that leaves nobody active holding every
 * permission. The deletion, its audit row (`role.delete`) and its `role.deleted` event commit
 * together.
 */
export async function deleteRole({ ctx, input }: HandlerCall<IdInput & RoleDeleteQuery>): Promise<void> {
  const { db, config } = ctx;
  await writeTransaction(db, async (tx) => {
    await lockAdministratorChanges(db, tx);
    const role = await lockRole(db, tx, input.id);
    if (!role) throw notFound('The role');
    const permissions = (await grantedPermissions(db, tx, role.id)).map((p) => p.name);
    const subject = { id: role.id, name: role.name, permissions };
    const violation = judgeRoleChange(
      ctx.actor,
      { kind: 'delete', role: subject },
      config.users.activation.adminRoleName,
    );
    if (violation) refuseRole(violation);
    const members = await membersOf(db, tx, role.id, DETACHED_IDS_KEPT);
    if (members.count > 0 && !input.detach) throw roleInUse(role.name, members);

    const guard = members.count > 0 ? await lastHolderGuard(db, tx) : null;
    await deleteRoleRows(db, tx, role.id);
    await guard?.check();
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'role.delete',
      targetType: 'role',
      targetIds: [role.id],
      changes: {
        name: { before: role.name, after: null },
        description: { before: role.description, after: null },
        permissions: { before: permissions, after: null },
      },
      ...(members.count > 0 ? { context: { detached: members.count, detached_ids: members.firstIds } } : {}),
    });
  });
}
