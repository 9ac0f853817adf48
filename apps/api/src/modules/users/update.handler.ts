import type { IdInput, UserItem, UserUpdateInput } from '@app/contracts';
import { UniqueConstraintError } from 'sequelize';
import { diff, recordChange } from '../../journal/journal.js';
import { hashPassword } from '../../auth/password.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError, forbidden } from '../../errors.js';
import { emailTakenError } from './create.handler.js';
import { rolesOf, toUserItem, versionOf } from './users.item.js';
import { lockForAdminRemoval } from '../../repositories/users.admin-turn.js';
import { revokeCredentials, revokeOtherCredentials } from './users.batch-repository.js';
import { checkRoleChange } from './users.roles-change.js';
import { usersPolicy } from '../../domain/users.policy.js';
import { type Change, judge, outranked } from '../../domain/users.rules.js';
import { liveUser, targetOf } from '../../repositories/users.targets.js';
import { refuse } from '../../domain/users.rules.js';
import { lockAdministratorChanges, lockUsers, roleIdByName } from '../../repositories/users.locks.js';
import { lastHolderGuard } from '../../repositories/permission-holders.js';
import { RetryTransaction } from '../../db/transaction.js';
import { checkGrantChange, directGrantsOf, replaceGrants } from './users.permissions-change.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';
import { emailTaken, replaceRoles, roleIdsOf } from './users.write-repository.js';

const staleVersion = () =>
  new AppError(
    'VERSION_CONFLICT',
    'Someone else changed this user after you opened it. Reload to see their changes, then edit again.',
  );

/**
 * PUT /users/{id}: the privilege ceiling first (403 OUTRANKED: a caller who may not touch the
 * account learns nothing more), then the optimistic lock (409 when `version` is stale, nothing
 * written), the e-mail, the status (needs users.setActive, rules 1–2) and the roles
 * (anti-escalation, rule 2 when the admin role is removed) and the direct grants (anti-escalation;
 * taking one away keeps someone holding every permission), all judged and applied in one
 * transaction. A new password ends the user's other sessions and tokens in that transaction.
 */
export async function updateUser({ ctx, input }: HandlerCall<IdInput & UserUpdateInput>): Promise<{ item: UserItem }> {
  const { db, config } = ctx;
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    return await writeTransaction(db, async (tx) => {
      // Only a PUT that could take an administrator away (status off, or roles replaced) of a
      // user who holds the admin role waits for the administrators' turn; a rename never does.
      const mayRemoveAdmin = input.is_active === false || input.roles_ids !== undefined;
      // Taking a direct grant away may end the administrators' guarantee: such a change takes
      // their turn before the user's row, like any change that could (one lock order).
      const nextGrants: readonly string[] | undefined = input.permissions;
      const takesGrants = (grants: readonly string[]) =>
        nextGrants !== undefined && grants.some((p) => !nextGrants.includes(p));
      const inTurn = takesGrants(await directGrantsOf(db, tx, input.id));
      if (inTurn) await lockAdministratorChanges(db, tx);
      const adminRoleId = await roleIdByName(db, tx, config.users.activation.adminRoleName);
      const { user, admins } = mayRemoveAdmin
        ? await lockForAdminRemoval(db, tx, input.id, config.users.activation.adminRoleName)
        : { user: liveUser(await lockUsers(db, tx, [input.id]), input.id), admins: new Set<number>() };
      const target = await targetOf(ctx, tx, user);
      const ceiling = outranked(ctx.actor, { kind: 'update', target });
      if (ceiling) refuse(ceiling);
      if (versionOf(user) !== input.version) throw staleVersion();
      if (await emailTaken(db, tx, input.email, user.id)) throw emailTakenError();
      const grantsBefore = await directGrantsOf(db, tx, user.id);
      if (!inTurn && takesGrants(grantsBefore)) throw new RetryTransaction('a direct grant appeared before the lock');
      const grants = nextGrants ? checkGrantChange(ctx, grantsBefore, nextGrants) : null;

      const changes: Change[] = [];
      const statusChanges = input.is_active !== undefined && input.is_active !== target.is_active;
      if (statusChanges) {
        if (!usersPolicy.setActive(ctx.actor, user)) throw forbidden('users.setActive');
        changes.push({ kind: 'setActive', target, active: input.is_active as boolean });
      }
      const currentRoles = await roleIdsOf(db, tx, user.id);
      const delta = input.roles_ids
        ? await checkRoleChange(ctx, tx, currentRoles, input.roles_ids)
        : { added: [], removed: [] };
      if (adminRoleId !== null && delta.removed.includes(adminRoleId))
        changes.push({ kind: 'removeAdminRole', target });
      const violation = judge(ctx.actor, changes, admins, config.users).get(user.id);
      if (violation) refuse(violation);

      const guard = grants?.removed.length ? await lastHolderGuard(db, tx) : null;
      const beforeRoles = (await rolesOf(db, user.id, tx)).map((r) => r.name);
      const before = { name: user.name, email: user.email, is_active: target.is_active };
      user.set({ name: input.name, email: input.email, lock_version: user.lock_version + 1 });
      if (statusChanges) user.set('is_active', input.is_active as boolean);
      if (passwordHash) user.set('password_hash', passwordHash);
      await user.save({ transaction: tx });
      await replaceRoles(db, tx, user.id, delta.added, delta.removed);
      if (grants) await replaceGrants(db, tx, user.id, grants);
      await guard?.check();
      const deactivated = statusChanges && !input.is_active;
      if (deactivated) await revokeCredentials(db, tx, [user.id]);
      // Whoever changed the password, the old one's sessions and tokens must not outlive it; the
      // credential this very request came with survives when users change their own.
      const revoked =
        passwordHash && !deactivated
          ? await revokeOtherCredentials(db, tx, user.id, user.id === ctx.actor.id ? ctx.auth : null)
          : null;
      const roles = await rolesOf(db, user.id, tx);
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: 'user.update',
        targetType: 'user',
        targetIds: [user.id],
        changes: diff(
          { ...before, roles: beforeRoles, permissions: grantsBefore },
          {
            name: user.name,
            email: user.email,
            is_active: Boolean(user.is_active),
            roles: roles.map((r) => r.name),
            permissions: grants ? await directGrantsOf(db, tx, user.id) : grantsBefore,
          },
        ),
        ...(passwordHash ? { context: { passwordChanged: true, ...revoked } } : {}),
      });
      return { item: { ...toUserItem(user), roles } };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw emailTakenError();
    throw err;
  }
}
