import type { IdInput, RoleShowQuery, RoleShowResult } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { notFound } from '../../errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { roleActions } from '../../domain/roles.rules.js';
import { ROLE_RECORD_COLUMNS, type RoleRecord, roleItemOf } from './roles.item.js';
import { USERS_COUNT_SQL } from './roles.reads.js';

/**
 * GET /roles/{id}: the role with what the caller may do to it; its permissions, and the counts of
 * its permissions and of its users (from the member stripes), when asked.
 */
export async function showRole({
  ctx,
  input,
}: HandlerCall<IdInput & RoleShowQuery, Context & { actor: Actor }>): Promise<RoleShowResult> {
  const usersCount = input.withCount.includes('users') ? `, ${USERS_COUNT_SQL} AS users_count` : '';
  const [role] = await ctx.db.sequelize.query<RoleRecord & { users_count?: number | string }>(
    `SELECT ${ROLE_RECORD_COLUMNS}${usersCount} FROM roles r WHERE r.id = :id`,
    { replacements: { id: input.id }, type: QueryTypes.SELECT },
  );
  if (!role) throw notFound('The role');
  const item: RoleShowResult['item'] = roleItemOf(role);
  // The permissions decide the actions (the role ceiling): read whether or not they are shown.
  const granted = await ctx.db.sequelize.query<{ id: number | string; name: string }>(
    `SELECT p.id, p.name FROM permissions p JOIN role_permissions rp ON rp.permission_id = p.id
      WHERE rp.role_id = :id ORDER BY p.name`,
    { replacements: { id: item.id }, type: QueryTypes.SELECT },
  );
  const names = granted.map((p) => p.name);
  if (input.with.includes('permissions')) item.permissions = granted.map((p) => ({ id: Number(p.id), name: p.name }));
  if (input.withCount.includes('permissions')) item.permissions_count = names.length;
  if (role.users_count !== undefined) item.users_count = Number(role.users_count);
  item.actions = roleActions(
    ctx.actor,
    { id: item.id, name: item.name, permissions: names },
    ctx.config.users.activation.adminRoleName,
  );
  return {
    item,
    meta: {
      loaded_relations: [...input.with],
      loaded_counts: input.withCount.map((relation) => `${relation}_count`),
      loaded_appends: [...input.append],
    },
  };
}
