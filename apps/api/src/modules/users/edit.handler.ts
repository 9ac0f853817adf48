import type { IdInput, UserEditResult } from '@app/contracts';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { permissionOptions, roleOptions } from '../../domain/escalation.js';
import { notFound } from '../../errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { actionsFor } from '../../repositories/users.action-facts.js';
import { rolesOf, toUserItem, versionOf } from './users.item.js';
import { toTarget } from '../../repositories/users.targets.js';
import { directGrantsOf } from './users.permissions-change.js';
import { attributeFieldsFor, visibleValuesOfUser } from '../attributes/attribute-values.repository.js';

/**
 * GET /users/{id}/edit: what the edit form needs, with the user's direct grants. Each role option says whether the caller may
 * grant or remove it (anti-escalation), and `actions` (with `can`, their yes/no) whether the
 * caller may change this user at all (record policy, privilege ceiling, rules), so the form
 * offers only what the server would accept.
 */
export async function editUser({
  ctx,
  input,
}: HandlerCall<IdInput, Context & { actor: Actor }>): Promise<UserEditResult> {
  // The route's guard (users.update) is the record policy here; a trashed user cannot be edited.
  const user = await ctx.db.models.User.findByPk(input.id);
  if (!user) throw notFound('The user');
  const [roles, permissions, grants, actionsById, fields, attributes] = await Promise.all([
    rolesOf(ctx.db, user.id),
    directGrantsOf(ctx.db, null, user.id),
    loadRoleGrants(ctx.db, 'all'),
    actionsFor(ctx, [toTarget(user)]),
    attributeFieldsFor(ctx.db, ctx.actor),
    visibleValuesOfUser(ctx.db, ctx.actor, user.id),
  ]);
  const actions = actionsById.get(user.id) as UserEditResult['item']['actions'];
  return {
    item: {
      ...toUserItem(user),
      roles,
      roles_ids: roles.map((r) => r.id),
      permissions,
      attributes,
      version: versionOf(user),
      actions,
    },
    options: { roles: roleOptions(ctx.actor, grants), permissions: permissionOptions(ctx.actor), attributes: fields },
    can: {
      update: actions.update.allowed,
      setActive: actions.setActive.allowed,
      delete: actions.delete.allowed,
      restore: actions.restore.allowed,
      forceDelete: actions.forceDelete.allowed,
    },
  };
}
