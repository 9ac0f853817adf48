import type { IdInput, UserShowItem, UserShowQuery, UserShowResult } from '@app/contracts';
import { AppError, notFound } from '../../errors.js';
import { userSections, usersPolicy } from '../../domain/users.policy.js';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { rolesCountOf, rolesOf, sortedPermissionNames, toUserItem } from './users.item.js';
import { actionsFor } from '../../repositories/users.action-facts.js';
import { toTarget } from '../../repositories/users.targets.js';
import { invitationStatus } from '../../domain/users.invite.js';

/** Loads a user for a show-like route: 404 when absent or trashed without `withTrashed`. */
export async function findUserForView(ctx: Context & { actor: Actor }, id: number, withTrashed: boolean) {
  const user = await ctx.db.models.User.findByPk(id, { paranoid: false });
  if (!user || (user.deleted_at && !withTrashed)) throw notFound('The user');
  if (!usersPolicy.view(ctx.actor, user)) {
    throw new AppError(
      'FORBIDDEN',
      'You need the users.restore or users.forceDelete permission to see deleted users.',
      {
        extra: { permission: 'users.restore' },
      },
    );
  }
  return user;
}

/**
 * GET /users/{id}: the item with what the caller may do to it, plus what was asked for (`with`,
 * `withCount`, `append`), and what was loaded.
 */
export async function showUser({
  ctx,
  input,
}: HandlerCall<IdInput & UserShowQuery, Context & { actor: Actor }>): Promise<UserShowResult> {
  const user = await findUserForView(ctx, input.id, input.withTrashed);
  const item = toUserItem(user);
  item.invitation = invitationStatus({
    sent: user.invitation_sent_at,
    expires: user.invitation_expires_at,
    accepted: user.invitation_accepted_at,
  });
  const needRoles = input.with.includes('roles') || input.append.includes('is_admin');
  const roles = needRoles ? await rolesOf(ctx.db, user.id) : [];
  if (input.with.includes('roles')) item.roles = roles;
  if (input.withCount.includes('roles')) item.roles_count = await rolesCountOf(ctx.db, user.id);
  if (input.append.includes('is_admin')) {
    const adminRole = ctx.config.users.activation.adminRoleName;
    item.is_admin = roles.some((r) => r.name === adminRole);
  }
  if (input.append.includes('permission_names')) item.permission_names = await sortedPermissionNames(ctx.db, user.id);
  const actions = (await actionsFor(ctx, [toTarget(user)])).get(user.id) as UserShowItem['actions'];
  return {
    item: { ...item, actions, sections: userSections(ctx.actor, user) },
    meta: {
      loaded_relations: [...input.with],
      loaded_counts: input.withCount.map((relation) => `${relation}_count`),
      loaded_appends: [...input.append],
    },
  };
}
