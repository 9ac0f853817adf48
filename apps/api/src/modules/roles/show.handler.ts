import type { IdInput, RoleShowQuery, RoleShowResult } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { notFound } from '../../errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';

/** GET /roles/{id}: the role, its permissions and their count (by subselect) when asked. */
export async function showRole({
  ctx,
  input,
}: {
  ctx: Context & { actor: Actor };
  input: IdInput & RoleShowQuery;
}): Promise<RoleShowResult> {
  const countColumn = input.withCount.includes('permissions')
    ? ', (SELECT COUNT(*) FROM role_permissions rp WHERE rp.role_id = r.id) AS permissions_count'
    : '';
  const [role] = await ctx.db.sequelize.query<{
    id: number;
    name: string;
    guard_name: string;
    permissions_count?: number | string;
  }>(`SELECT r.id, r.name, r.guard_name${countColumn} FROM roles r WHERE r.id = :id`, {
    replacements: { id: input.id },
    type: QueryTypes.SELECT,
  });
  if (!role) throw notFound('The role');
  const item: RoleShowResult['item'] = { id: Number(role.id), name: role.name, guard_name: role.guard_name };
  if (input.with.includes('permissions')) {
    const perms = await ctx.db.sequelize.query<{ id: number; name: string }>(
      `SELECT p.id, p.name FROM permissions p JOIN role_permissions rp ON rp.permission_id = p.id
        WHERE rp.role_id = :id ORDER BY p.name`,
      { replacements: { id: role.id }, type: QueryTypes.SELECT },
    );
    item.permissions = perms.map((p) => ({ id: Number(p.id), name: p.name }));
  }
  if (role.permissions_count !== undefined) item.permissions_count = Number(role.permissions_count);
  return {
    item,
    meta: {
      loaded_relations: [...input.with],
      loaded_counts: input.withCount.map((relation) => `${relation}_count`),
      loaded_appends: [...input.append],
    },
  };
}
