import type { IdInput, UserEditItem } from '@app/contracts';
import { loadRoleGrants, mayAssignRole } from '../../auth/escalation.js';
import { usersPolicy } from '../../policies/users.policy.js';
import type { Actor, Context } from '../../trpc/context.js';
import { availableRoles } from './users.read-repository.js';
import { notFound } from '../../errors.js';
import { rolesOf, toUserItem, versionOf } from './users.item.js';

export interface UserEditData {
  item: UserEditItem;
  options: { roles: Array<{ id: number; name: string; assignable: boolean }> };
  can: { update: boolean; setActive: boolean; delete: boolean; restore: boolean; forceDelete: boolean };
}

/**
 * GET /users/{id}/edit: what the edit form needs. Each role option says whether the caller may
 * grant or remove it (anti-escalation), so the form can disable what the server would refuse.
 */
export async function editUser({
  ctx,
  input,
}: {
  ctx: Context & { actor: Actor };
  input: IdInput;
}): Promise<UserEditData> {
  // The route's guard (users.update) is the record policy here; a trashed user cannot be edited.
  const user = await ctx.db.models.User.findByPk(input.id);
  if (!user) throw notFound('The user');
  const [roles, options] = await Promise.all([rolesOf(ctx.db, user.id), availableRoles(ctx.db)]);
  const grants = await loadRoleGrants(
    ctx.db,
    options.map((r) => r.id),
  );
  const assignable = new Set(grants.filter((g) => mayAssignRole(ctx.actor, g)).map((g) => g.id));
  return {
    item: { ...toUserItem(user), roles, roles_ids: roles.map((r) => r.id), version: versionOf(user) },
    options: { roles: options.map((r) => ({ ...r, assignable: assignable.has(r.id) })) },
    can: {
      update: usersPolicy.update(ctx.actor, user),
      setActive: usersPolicy.setActive(ctx.actor, user),
      delete: usersPolicy.delete(ctx.actor, user),
      restore: usersPolicy.restore(ctx.actor, user),
      forceDelete: usersPolicy.forceDelete(ctx.actor, user),
    },
  };
}
