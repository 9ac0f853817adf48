import type { IdInput, UserItem, UserUpdateInput } from '@app/contracts';
import { UniqueConstraintError } from 'sequelize';
import { hashPassword } from '../../auth/password.js';
import type { HandlerCall } from '../../context.js';
import { RetryTransaction, writeTransaction } from '../../db/transaction.js';
import { planEdit } from '../../domain/users.edit-plan.js';
import { refusalError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { lastHolderGuard } from '../../repositories/permission-holders.js';
import { lockForAdminRemoval } from '../../repositories/users.admin-turn.js';
import { lockAdministratorChanges, lockUsers, roleIdByName } from '../../repositories/users.locks.js';
import { liveUser, targetOf } from '../../repositories/users.targets.js';
import { uniqueRefusal } from './users.unique-refusal.js';
import { revokeCredentials, revokeOtherCredentials } from './users.batch-repository.js';
import { rolesOf, toUserItem, versionOf } from './users.item.js';
import { directGrantsOf, replaceGrants } from './users.permissions-change.js';
import { roleFactsOf } from './users.roles-change.js';
import {
  emailTaken,
  describedColumns,
  identityAudit,
  identityColumns,
  replaceRoles,
  roleIdsOf,
  storesUserName,
  type UserIdentity,
} from './users.write-repository.js';
import { visibleValuesOfUser } from '../attributes/attribute-values.repository.js';
import { sensitivityContext, writeAttributeValues } from '../attributes/attribute-values.write.js';

/** An audit context of the parts given, or none when all are empty. */
const contextOf = (...parts: Record<string, unknown>[]) => {
  const context = Object.assign({}, ...parts) as Record<string, unknown>;
  return Object.keys(context).length > 0 ? { context } : {};
};

/**
 * PUT /users/{id} as a transaction script: lock the user (and take the administrators' turn when
 * the change could take one away), read the facts, ask the plan (domain/users.edit-plan.ts: the
 * ceiling, the version, the e-mail, the grants, the status, the roles and the rules, in that
 * order), apply it, with the custom attribute values given (only their keys change). A new password ends the user's other sessions and tokens in that transaction.
 */
export async function updateUser({
  ctx,
  input,
}: HandlerCall<IdInput & UserUpdateInput & { identity?: UserIdentity }>): Promise<{ item: UserItem }> {
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
      const grantsBefore = await directGrantsOf(db, tx, user.id);
      if (!inTurn && takesGrants(grantsBefore)) throw new RetryTransaction('a direct grant appeared before the lock');
      const rolesBefore = await roleIdsOf(db, tx, user.id);
      const decided = planEdit(
        ctx.actor,
        input,
        {
          target: await targetOf(ctx, tx, user),
          version: versionOf(user),
          emailTaken: await emailTaken(db, tx, input.email, user.id),
          grantsBefore,
          rolesBefore,
          roles: input.roles_ids ? await roleFactsOf(db, tx, rolesBefore, input.roles_ids) : null,
          adminRoleId,
          admins,
        },
        config.users,
      );
      if ('refusal' in decided) throw refusalError(decided.refusal);
      const { plan } = decided;

      const guard = plan.grants?.removed.length ? await lastHolderGuard(db, tx) : null;
      const beforeRoles = (await rolesOf(db, user.id, tx)).map((r) => r.name);
      const before = { name: user.name, email: user.email, is_active: Boolean(user.is_active), ...identityAudit(user) };
      user.set({
        ...describedColumns(input.identity, user, input),
        name: input.name,
        email: input.email,
        lock_version: user.lock_version + 1,
        ...identityColumns(input.identity, input.email),
      });
      if (plan.statusChanges) user.set('is_active', input.is_active as boolean);
      if (passwordHash) user.set('password_hash', passwordHash);
      await user.save({ transaction: tx });
      await replaceRoles(db, tx, user.id, plan.roles.added, plan.roles.removed);
      if (plan.grants) await replaceGrants(db, tx, user.id, plan.grants);
      await guard?.check();
      const attributes = await writeAttributeValues(db, tx, ctx.actor, user.id, input.attributes, { creating: false });
      const deactivated = plan.statusChanges && !input.is_active;
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
          { ...before, roles: beforeRoles, permissions: grantsBefore, ...attributes.before },
          {
            name: user.name,
            email: user.email,
            is_active: Boolean(user.is_active),
            ...identityAudit(user),
            roles: roles.map((r) => r.name),
            permissions: plan.grants ? await directGrantsOf(db, tx, user.id) : grantsBefore,
            ...attributes.after,
          },
        ),
        ...contextOf(passwordHash ? { passwordChanged: true, ...revoked } : {}, sensitivityContext(attributes)),
      });
      const values = await visibleValuesOfUser(db, ctx.actor, user.id, tx);
      return { item: { ...toUserItem(user), roles, attributes: values } };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw uniqueRefusal(err, storesUserName(input.identity, input.email));
    throw err;
  }
}
