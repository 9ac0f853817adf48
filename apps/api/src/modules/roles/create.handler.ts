import type { RoleCreated, RoleCreateInput } from '@app/contracts';
import { Op, UniqueConstraintError, where, fn, col } from 'sequelize';
import { writeTransaction } from '../../db/transaction.js';
import { permissionsBeyondActor } from '../../domain/escalation.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { WriteContext } from '../users/users.write-support.js';

const nameTaken = (name: string) => {
  const message = `A role named ${name} already exists.`;
  return new AppError('VALIDATION_FAILED', message, { errors: { name: [message] } });
};

/**
 * Creates a role with the permissions it grants. Anti-escalation: the actor grants only
 * permissions it holds (403 naming the first it lacks; the command line's operator holds them
 * all). Names are unique whatever their case (422 at `name`). The role and its audit row
 * (`role.create`) commit together.
 */
export async function createRole({ ctx, input }: { ctx: WriteContext; input: RoleCreateInput }): Promise<RoleCreated> {
  const missing = permissionsBeyondActor(ctx.actor, input.permissions);
  if (missing.length > 0) {
    const message = `You cannot create a role with permissions you do not hold (${missing.join(', ')}).`;
    throw new AppError('FORBIDDEN', message, {
      errors: { permissions: [message] },
      extra: { permission: missing[0] ?? '' },
    });
  }
  const { db } = ctx;
  try {
    return await writeTransaction(db, async (tx) => {
      const same = await db.models.Role.findOne({
        attributes: ['id', 'name'],
        where: where(fn('LOWER', col('name')), input.name.toLowerCase()),
        transaction: tx,
      });
      if (same) throw nameTaken(same.name);
      const role = await db.models.Role.create({ name: input.name, guard_name: 'web' }, { transaction: tx });
      const permissions = input.permissions.length
        ? await db.models.Permission.findAll({
            where: { name: { [Op.in]: input.permissions } },
            order: [['name', 'ASC']],
            transaction: tx,
          })
        : [];
      await db.models.RolePermission.bulkCreate(
        permissions.map((p) => ({ role_id: role.id, permission_id: p.id })),
        { transaction: tx },
      );
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: 'role.create',
        targetType: 'role',
        targetIds: [role.id],
        changes: diff(null, { name: role.name, permissions: permissions.map((p) => p.name) }),
      });
      const granted = permissions.map((p) => ({ id: p.id, name: p.name }));
      return {
        item: {
          id: role.id,
          name: role.name,
          guard_name: role.guard_name,
          permissions: granted,
          permissions_count: granted.length,
        },
      };
    });
  } catch (err) {
    // Two creations racing for one name: the unique index decides, the loser gets the same 422.
    if (err instanceof UniqueConstraintError) throw nameTaken(input.name);
    throw err;
  }
}
