import type { RoleListRow, RolesListQuery, RolesListResult } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { roleActions } from '../../domain/roles.rules.js';
import { listPage, pageOffset } from '../../query/list-page.js';
import { plainFilters } from '../../query/list-query-engine.js';
import { roleItemOf } from './roles.item.js';
import { permissionNamesOf, rolesCount, rolesPage } from './roles.reads.js';

/**
 * GET /roles: one page of roles, each with its permission and member counts and what the caller
 * may do to it (judged by the writes' own rules), its meta and the filters as understood. Two
 * statements whatever the number of roles: the page with its total, then its roles' permissions
 * (a third, the count, only for a page past the last match).
 */
export async function listRoles({
  ctx,
  input,
}: HandlerCall<RolesListQuery, Pick<Context, 'db' | 'config'> & { actor: Actor }>): Promise<RolesListResult> {
  const { db } = ctx;
  const offset = pageOffset(input);
  const page = await rolesPage(db, input, input.perPage, offset);
  const ids = page.rows.map((r) => Number(r.id));
  const [names, total] = await Promise.all([
    permissionNamesOf(db, ids),
    page.total ?? (offset > 0 ? rolesCount(db, input) : 0),
  ]);
  const adminRoleName = ctx.config.users.activation.adminRoleName;
  const rows = page.rows.map((record): RoleListRow => {
    const item = roleItemOf(record);
    const permissions = names.get(item.id) ?? [];
    return {
      ...item,
      permissions_count: permissions.length,
      users_count: Number(record.users_count),
      actions: roleActions(ctx.actor, { id: item.id, name: item.name, permissions }, adminRoleName),
    };
  });
  return { ...listPage(input, { total, exact: true }, ids, rows), filters: plainFilters(input.filters) };
}
