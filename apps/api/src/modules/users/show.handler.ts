import type { IdInput, UserShowQuery, UserShowResult } from '@app/contracts';
import { AppError, notFound } from '../../errors.js';
import { userSections, usersPolicy } from '../../domain/users.policy.js';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { rolesCountOf, rolesOf, sortedPermissionNames, toUserItem } from './users.item.js';
import { readActionFacts } from '../../repositories/users.action-facts.js';
import { toTarget } from '../../repositories/users.targets.js';
import { readTwoFactorFacts } from '../../repositories/users.two-factor-facts.js';
import { actionsFrom } from '../../domain/users.actions.js';
import { invitationStatus } from '../../domain/users.invite.js';
import { signInActionsOf } from '../../domain/users.sign-in-actions.js';
import { toIso } from '../../db/sql-date.js';
import { visibleValuesOfUser } from '../attributes/attribute-values.repository.js';

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
 * GET /users/{id}: the item with how the user signs in (last sign-in, second factor), what the
 * caller may do to it — the record's actions and the sign-in ones, each by the rule its write
 * runs — plus what was asked for (`with`, `withCount`, `append`), and what was loaded.
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
  // The record's actions and the sign-in ones read the same facts (the ceiling's grants).
  const [facts, twoFactor, attributes] = await Promise.all([
    readActionFacts(ctx, [user.id]),
    readTwoFactorFacts(ctx.db, user.id),
    visibleValuesOfUser(ctx.db, ctx.actor, user.id),
  ]);
  const target = toTarget(user, facts.held.get(user.id));
  const record = actionsFrom(ctx, [target], facts).get(user.id);
  if (!record) throw new Error('the actions of a user read were not decided');
  const signIn = signInActionsOf(ctx.actor, target, { signedIn: user.last_sign_in_at !== null, twoFactor });
  return {
    item: {
      ...item,
      attributes,
      last_sign_in_at: toIso(user.last_sign_in_at),
      two_factor: { enrolled: twoFactor.enrolled, required: twoFactor.required },
      actions: { ...record, ...signIn },
      sections: userSections(ctx.actor, user),
    },
    meta: {
      loaded_relations: [...input.with],
      loaded_counts: input.withCount.map((relation) => `${relation}_count`),
      loaded_appends: [...input.append],
    },
  };
}
