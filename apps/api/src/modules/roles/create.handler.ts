import type { RoleCreated, RoleCreateInput } from '@app/contracts';
import { UniqueConstraintError } from 'sequelize';
import { writeTransaction } from '../../db/transaction.js';
import { judgeRoleChange } from '../../domain/roles.rules.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';
import { insertRole, lockRole, roleNamed, setRolePermissions } from './roles.write-repository.js';
import { nameTaken, refuseRole, type RoleIdentity, uniqueRoleRefusal, writtenRoleItem } from './roles.write-support.js';

/**
 * POST /roles (and the command line's role:create, as the operator, who holds every
 * permission): the rules first (roles.create, and only permissions the caller holds: 403
 * naming those it lacks), then the name, unique whatever its case and spacing (422 at `name`). The role,
 * its grants, its audit row (`role.create`) and its `role.created` event commit together.
 */
export async function createRole({
  ctx,
  input,
}: HandlerCall<RoleCreateInput & { identity?: RoleIdentity }>): Promise<RoleCreated> {
  const { db, config } = ctx;
  const change = { kind: 'create', name: input.name, permissions: input.permissions } as const;
  const violation = judgeRoleChange(ctx.actor, change, config.users.activation.adminRoleName);
  if (violation) refuseRole(violation);
  try {
    return await writeTransaction(db, async (tx) => {
      const same = await roleNamed(db, tx, input.name);
      if (same) throw nameTaken(same.name);
      const id = await insertRole(db, tx, {
        name: input.name,
        description: input.description,
        requireTwoFactor: input.require_two_factor,
        ...(input.identity ? { externalId: input.identity.externalId } : {}),
      });
      const permissions = await setRolePermissions(db, tx, id, input.permissions);
      const role = await lockRole(db, tx, id);
      if (!role) throw new Error(`the role ${id} vanished in its own transaction`);
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: 'role.create',
        targetType: 'role',
        targetIds: [id],
        changes: diff(null, {
          name: role.name,
          description: role.description,
          // Named only when on: a role that asks nothing of its members reads as before.
          ...(Number(role.require_two_factor) ? { require_two_factor: true } : {}),
          permissions: permissions.map((p) => p.name),
          ...(role.external_id ? { external_id: role.external_id } : {}),
        }),
      });
      return { item: writtenRoleItem(role, permissions) };
    });
  } catch (err) {
    // Two creations racing for one name (MariaDB): the unique index decides, the loser gets the same 422 naming the winner.
    if (err instanceof UniqueConstraintError) throw await uniqueRoleRefusal(db, err, input.name);
    throw err;
  }
}
