import type { UserCreateInput, UserItem } from '@app/contracts';
import { UniqueConstraintError } from 'sequelize';
import { diff, recordChange } from '../../journal/journal.js';
import { hashPassword } from '../../auth/password.js';
import { writeTransaction } from '../../db/transaction.js';
import { usersPolicy } from '../../domain/users.policy.js';
import { AppError, forbidden, refusalError } from '../../errors.js';
import { EMAIL_TAKEN, planCreate } from '../../domain/users.edit-plan.js';
import { rolesOf, toUserItem } from './users.item.js';
import { emailTaken, insertUser } from './users.write-repository.js';
import { replaceGrants } from './users.permissions-change.js';
import { roleFactsOf } from './users.roles-change.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerCall } from '../../context.js';

export const emailTakenError = () =>
  new AppError('VALIDATION_FAILED', EMAIL_TAKEN, { errors: { email: [EMAIL_TAKEN] } });

/**
 * POST /users: 201 with the new user. Creating an inactive account needs users.setActive too; the
 * roles and the direct grants (`permissions`) are judged by the edit's own rules (the caller gives
 * only what it holds), so every door — REST, tRPC, the CLI — creates under them.
 */
export async function createUser({ ctx, input }: HandlerCall<UserCreateInput>): Promise<{
  item: UserItem;
}> {
  if (input.is_active === false && !usersPolicy.createInactive(ctx.actor)) throw forbidden('users.setActive');
  // Hash before the transaction: ~60 ms of CPU must not hold the write lock.
  const passwordHash = await hashPassword(input.password);
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
        { name: input.name, email: input.email, passwordHash, isActive },
        roleIds,
      );
      await replaceGrants(ctx.db, tx, user.id, grants);
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
        }),
      });
      await user.reload({ transaction: tx });
      return { item: { ...toUserItem(user), roles } };
    });
  } catch (err) {
    // Two creations racing for one e-mail: the unique index decides, the loser gets the same 422.
    if (err instanceof UniqueConstraintError) throw emailTakenError();
    throw err;
  }
}
