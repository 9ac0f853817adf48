import type { IdInput, RoleUpdated, RoleUpdateInput } from '@app/contracts';
import { lastHolderGuard } from '../../repositories/permission-holders.js';
import { UniqueConstraintError } from 'sequelize';
import { writeTransaction } from '../../db/transaction.js';
import { judgeRoleChange } from '../../domain/roles.rules.js';
import { lockAdministratorChanges } from '../../repositories/users.locks.js';
import { notFound } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';
import {
  grantedPermissions,
  lockRole,
  roleNamed,
  setRolePermissions,
  updateRoleRow,
} from './roles.write-repository.js';
import {
  nameTaken,
  refuseRole,
  type RoleIdentity,
  staleVersion,
  uniqueRoleRefusal,
  writtenRoleItem,
} from './roles.write-support.js';
import { roleVersionOf } from './roles.item.js';

/**
 * PUT /roles/{id}: under the administrators' turn and the role's row lock, the rules (403
 * FORBIDDEN / OUTRANKED, 422 ROLE_PROTECTED for the administrator role), then the optimistic
 * lock (409 when `version` is stale, nothing written), the name (unique whatever its case and spacing), and
 * — when permissions are taken away — the last holder of every permission (422 LAST_ADMIN,
 * judged on the state the change leaves). The change, its audit row (`role.update`, before and
 * after of what changed) and its `role.updated` event commit together.
 */
export async function updateRole({
  ctx,
  input,
}: HandlerCall<IdInput & RoleUpdateInput & { identity?: RoleIdentity }>): Promise<RoleUpdated> {
  const { db, config } = ctx;
  try {
    return await writeTransaction(db, async (tx) => {
      // The turn first, then the role: the order every change that may take an administrator's
      // powers away takes its locks in (users.locks.ts).
      await lockAdministratorChanges(db, tx);
      const role = await lockRole(db, tx, input.id);
      if (!role) throw notFound('The role');
      const granted = await grantedPermissions(db, tx, role.id);
      const before = {
        name: role.name,
        description: role.description,
        require_two_factor: Boolean(Number(role.require_two_factor)),
        permissions: granted.map((p) => p.name),
        ...(role.external_id ? { external_id: role.external_id } : {}),
      };
      const subject = { id: role.id, name: role.name, permissions: before.permissions };
      const change = { kind: 'update', role: subject, name: input.name, permissions: input.permissions } as const;
      const violation = judgeRoleChange(ctx.actor, change, config.users.activation.adminRoleName);
      if (violation) refuseRole(violation);
      if (roleVersionOf(role) !== input.version) throw staleVersion();
      const same = await roleNamed(db, tx, input.name, role.id);
      if (same) throw nameTaken(same.name);

      const next = new Set<string>(input.permissions);
      const losing = before.permissions.some((p) => !next.has(p));
      const guard = losing ? await lastHolderGuard(db, tx) : null;
      const description = input.description === undefined ? role.description : input.description;
      const requireTwoFactor = input.require_two_factor ?? before.require_two_factor;
      await updateRoleRow(db, tx, role.id, {
        name: input.name,
        description,
        requireTwoFactor,
        ...(input.identity ? { externalId: input.identity.externalId } : {}),
      });
      const permissions = await setRolePermissions(db, tx, role.id, input.permissions);
      await guard?.check();

      const updated = await lockRole(db, tx, role.id);
      if (!updated) throw notFound('The role');
      const after = {
        name: updated.name,
        description: updated.description,
        require_two_factor: Boolean(Number(updated.require_two_factor)),
        permissions: permissions.map((p) => p.name),
        ...(updated.external_id ? { external_id: updated.external_id } : {}),
      };
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: 'role.update',
        targetType: 'role',
        targetIds: [role.id],
        changes: diff(before, after),
      });
      return { item: writtenRoleItem(updated, permissions) };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw await uniqueRoleRefusal(db, err, input.name, input.id);
    throw err;
  }
}
