import { PERMISSION_CATALOGUE, type PermissionsListResult } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { permissionOptions } from '../../domain/escalation.js';

/**
 * GET /permissions: the catalogue in the contract's order, each permission with the roles granting
 * it by name and whether the caller may grant or remove it — the writes' own rule (no escalation:
 * `permissionOptions`), so the editor disables exactly what PUT /roles would refuse. One read
 * of every grant, whatever the number of roles: a role grants at most every permission, so the
 * rows are roles × permissions at most. A permission row created by hand under a name the
 * contract does not know is left out, as it is from the caller's capabilities.
 */
export async function listPermissions({
  ctx,
}: {
  ctx: { db: Database; actor: Actor };
}): Promise<PermissionsListResult> {
  const grants = await ctx.db.sequelize.query<{ permission: string; id: number | string; name: string }>(
    `SELECT p.name AS permission, r.id, r.name
       FROM role_permissions rp
       JOIN permissions p ON p.id = rp.permission_id
       JOIN roles r ON r.id = rp.role_id
      ORDER BY r.name, r.id`,
    { type: QueryTypes.SELECT },
  );
  const rolesOf = new Map<string, Array<{ id: number; name: string }>>();
  for (const grant of grants) {
    const roles = rolesOf.get(grant.permission) ?? [];
    roles.push({ id: Number(grant.id), name: grant.name });
    rolesOf.set(grant.permission, roles);
  }
  // The user form's rule and sentence (domain/escalation.ts): a role's grants and a user's
  // direct ones are given and taken away under the same no-escalation rule.
  const rows = permissionOptions(ctx.actor).map((option) => ({
    ...option,
    ...PERMISSION_CATALOGUE[option.name],
    roles: rolesOf.get(option.name) ?? [],
  }));
  return { rows, meta: { total: rows.length } };
}
