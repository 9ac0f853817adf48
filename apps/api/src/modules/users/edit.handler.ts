import type { IdInput, UserEditResult } from '@app/contracts';
import { loadRoleGrants, mayAssignRole } from '../../auth/escalation.js';
import { notFound } from '../../errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../trpc/context.js';
import { actionsFor } from './users.actions.js';
import { rolesOf, toUserItem, versionOf } from './users.item.js';
import { availableRoles } from './users.read-repository.js';
import { toTarget } from './users.write-support.js';

/**
 * GET /users/{id}/edit: what the edit form needs. Each role option says whether the caller may
 * grant or remove it (anti-escalation), and `actions` (with `can`, their yes/no) whether the
 * caller may change this user at all (record policy, privilege ceiling, rules), so the form
 * offers only what the server would accept.
 */
export async function editUser({
  ctx,
  input,
}: {
  ctx: Context & { actor: Actor };
  input: IdInput;
}): Promise<UserEditResult> {
  // The route's guard (users.update) is the record policy here; a trashed user cannot be edited.
  const user = await ctx.db.models.User.findByPk(input.id);
  if (!user) throw notFound('The user');
  const [roles, options, actionsById] = await Promise.all([
    rolesOf(ctx.db, user.id),
    availableRoles(ctx.db),
    actionsFor(ctx, [toTarget(user)]),
  ]);
  const grants = await loadRoleGrants(
    ctx.db,
    options.map((r) => r.id),
  );
  const assignable = new Set(grants.filter((g) => mayAssignRole(ctx.actor, g)).map((g) => g.id));
  const actions = actionsById.get(user.id) as UserEditResult['item']['actions'];
  return {
    item: { ...toUserItem(user), roles, roles_ids: roles.map((r) => r.id), version: versionOf(user), actions },
    options: { roles: options.map((r) => ({ ...r, assignable: assignable.has(r.id) })) },
    can: {
      update: actions.update.allowed,
      setActive: actions.setActive.allowed,
      delete: actions.delete.allowed,
      restore: actions.restore.allowed,
      forceDelete: actions.forceDelete.allowed,
    },
  };
}
