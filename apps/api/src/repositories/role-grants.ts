import { Op, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { RoleGrant } from '../domain/escalation.js';

/** Loads roles with their permission names, for the check above: by id, or every role by name. */
export async function loadRoleGrants(
  db: Database,
  roleIds: readonly number[] | 'all',
  tx?: Transaction,
): Promise<RoleGrant[]> {
  if (roleIds.length === 0) return [];
  const roles = await db.models.Role.findAll({
    ...(roleIds === 'all' ? {} : { where: { id: { [Op.in]: [...roleIds] } } }),
    include: [{ association: 'permissions', attributes: ['name'], through: { attributes: [] } }],
    order: roleIds === 'all' ? [['name', 'ASC']] : [['id', 'ASC']],
    transaction: tx,
  });
  return roles.map((r) => ({
    id: r.id,
    name: r.name,
    permissions: ((r.get('permissions') as Array<{ name: string }> | undefined) ?? []).map((p) => p.name),
  }));
}
