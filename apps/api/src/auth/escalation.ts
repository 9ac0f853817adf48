import { Op, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { Actor } from './actor.js';

export interface RoleGrant {
  id: number;
  name: string;
  permissions: readonly string[];
}

/**
 * No privilege escalation: an actor may grant or remove a role only if it holds every
 * permission of that role itself. (Removing counts too: otherwise a manager could strip an
 * administrator of the admin role it could never grant back.)
 */
export function mayAssignRole(actor: Actor, role: RoleGrant): boolean {
  return role.permissions.every((p) => actor.permissions.has(p));
}

/** The roles among `changed` (added or removed) the actor may not touch, with the permissions it lacks. */
export function rolesBeyondActor(
  actor: Actor,
  changed: readonly RoleGrant[],
): Array<RoleGrant & { missing: string[] }> {
  return changed
    .filter((role) => !mayAssignRole(actor, role))
    .map((role) => ({ ...role, missing: role.permissions.filter((p) => !actor.permissions.has(p)) }));
}

/** Loads roles with their permission names, for the check above. */
export async function loadRoleGrants(db: Database, roleIds: readonly number[], tx?: Transaction): Promise<RoleGrant[]> {
  if (roleIds.length === 0) return [];
  const roles = await db.models.Role.findAll({
    where: { id: { [Op.in]: [...roleIds] } },
    include: [{ association: 'permissions', attributes: ['name'], through: { attributes: [] } }],
    order: [['id', 'ASC']],
    transaction: tx,
  });
  return roles.map((r) => ({
    id: r.id,
    name: r.name,
    permissions: ((r.get('permissions') as Array<{ name: string }> | undefined) ?? []).map((p) => p.name),
  }));
}
