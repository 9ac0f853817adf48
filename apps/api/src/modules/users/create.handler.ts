import type { UserCreateAnswer, UserCreateInput } from '@app/contracts';
import { type Transaction, UniqueConstraintError } from 'sequelize';
import type { User } from '../../db/models/index.js';
import { diff, recordChange } from '../../journal/journal.js';
import { hashPassword, UNUSABLE_PASSWORD } from '../../auth/password.js';
import { writeTransaction } from '../../db/transaction.js';
import { inviteRefusal } from '../../domain/users.invite.js';
import { usersPolicy } from '../../domain/users.policy.js';
import { forbidden, refusalError } from '../../errors.js';
import { planCreate } from '../../domain/users.edit-plan.js';
import { rolesOf, toUserItem } from './users.item.js';
import { emailTaken, identityAudit, insertUser, storesUserName, type UserIdentity } from './users.write-repository.js';
import { uniqueRefusal } from './users.unique-refusal.js';
import { replaceGrants } from './users.permissions-change.js';
import { roleFactsOf } from './users.roles-change.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerCall, HandlerContext } from '../../context.js';
import { inviteUsers } from '../invitations/invitations.issue.js';
import { visibleValuesOfUser } from '../attributes/attribute-values.repository.js';
import { sensitivityContext, writeAttributeValues } from '../attributes/attribute-values.write.js';

/**
 * POST /users: 201 with the new user. Creating an inactive account needs users.setActive too; the
 * roles and the direct grants (`permissions`) are judged by the edit's own rules (the caller gives
 * only what it holds), so every door — REST, tRPC, the CLI — creates under them. With `invite:
 * true` (and no password) the account is created without a usable password and invited in the
 * same transaction, answered as POST /users/{id}/invite answers beside the item. Custom attribute
 * values are judged and stored in that transaction too (every required one the caller may see).
 */
export async function createUser({
  ctx,
  input,
}: HandlerCall<UserCreateInput & { identity?: UserIdentity }>): Promise<UserCreateAnswer> {
  if (input.is_active === false && !usersPolicy.createInactive(ctx.actor)) throw forbidden('users.setActive');
  // Hash before the transaction: ~60 ms of CPU must not hold the write lock. An invited account
  // has no password until its link sets one (the contract refuses neither and both).
  const passwordHash = input.password === undefined ? UNUSABLE_PASSWORD : await hashPassword(input.password);
  const isActive = input.is_active ?? true;
  try {
    return await writeTransaction(ctx.db, async (tx) => {
      const roleIds = input.roles_ids ?? [];
      const decided = planCreate(
        ctx.actor,
        { roles_ids: roleIds, permissions: input.permissions ?? [] },
        { emailTaken: await emailTaken(ctx.db, tx, input.email), roles: await roleFactsOf(ctx.db, tx, [], roleIds) },
      );
      if ('refusal' in decided) throw refusalError(decided.refusal);
      const { grants } = decided;
      const user = await insertUser(
        ctx.db,
        tx,
        {
          name: input.name,
          email: input.email,
          passwordHash,
          isActive,
          ...(input.identity ? { identity: input.identity } : {}),
        },
        roleIds,
      );
      await replaceGrants(ctx.db, tx, user.id, grants);
      const attributes = await writeAttributeValues(ctx.db, tx, ctx.actor, user.id, input.attributes, {
        creating: true,
      });
      const roles = await rolesOf(ctx.db, user.id, tx);
      await recordChange(ctx.db, tx, {
        ...auditOriginOf(ctx),
        action: 'user.create',
        targetType: 'user',
        targetIds: [user.id],
        changes: diff(null, {
          name: user.name,
          email: user.email,
          is_active: isActive,
          roles: roles.map((r) => r.name),
          ...(grants.added.length ? { permissions: grants.added } : {}),
          ...identityAudit(user),
          ...attributes.after,
        }),
        ...(Object.keys(attributes.sensitivity).length ? { context: sensitivityContext(attributes) } : {}),
      });
      const invitation = input.invite ? await inviteCreated(ctx, tx, user) : {};
      await user.reload({ transaction: tx });
      const values = await visibleValuesOfUser(ctx.db, ctx.actor, user.id, tx);
      return { item: { ...toUserItem(user), roles, attributes: values }, ...invitation };
    });
  } catch (err) {
    // Two creations racing for one e-mail: the unique index decides, the loser gets the same 422.
    if (err instanceof UniqueConstraintError) throw uniqueRefusal(err, storesUserName(input.identity, input.email));
    throw err;
  }
}

/**
 * The invitation of an account just created, judged by the single invite route's rule (an
 * inactive account cannot accept one: 422 NOT_ACTIVE, nothing created).
 */
async function inviteCreated(
  ctx: HandlerContext,
  tx: Transaction,
  user: User,
): Promise<Omit<UserCreateAnswer, 'item'>> {
  // New: never signed in, live, and holding only what its creator may give (planCreate).
  const target = {
    id: user.id,
    name: user.name,
    is_active: user.is_active,
    deleted: false,
    permissions: new Set<string>(),
  };
  const refusal = inviteRefusal(ctx.actor, { ...target, signedIn: false });
  if (refusal) throw refusalError(refusal);
  const [invited] = await inviteUsers(ctx, tx, [user], { created: true });
  if (!invited) throw new Error('an invitation was judged and not issued');
  return {
    invitation: { user_id: user.id, expires_at: invited.expiresAt.toISOString(), sent: invited.sent },
    ...(invited.url ? { url: invited.url } : {}),
  };
}
