import { roleNameKey } from '@app/contracts';
import { UniqueConstraintError } from 'sequelize';
import { UNUSABLE_PASSWORD } from '../../auth/password.js';
import type { Context } from '../../context.js';
import type { AuthProviderRow } from '../../db/models/index.js';
import { writeTransaction } from '../../db/transaction.js';
import { planCreate } from '../../domain/users.edit-plan.js';
import { diff, recordChange } from '../../journal/journal.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { insertUser } from '../users/users.write-repository.js';
import { roleFactsOf } from '../users/users.roles-change.js';

/** The account holding this e-mail, deleted ones included (the e-mail stays theirs). */
export async function accountByEmail(ctx: Context, email: string) {
  const user = await ctx.db.models.User.findOne({ where: { email }, paranoid: false });
  return user ? { id: user.id, isActive: Boolean(user.is_active), deleted: user.deleted_at !== null } : null;
}

/**
 * Creates the account a provider that creates accounts signs in for the first time: active, with
 * no password (it signs in through the provider, or sets one through a reset link), with the
 * provider's default roles. Through POST /users's own plan: the e-mail must be free and the roles
 * exist; the roles were judged against the administrator who saved the provider, so the plan's
 * grantor here holds exactly what those roles carry. Null when the e-mail was taken meanwhile.
 */
export async function createSsoAccount(ctx: Context, provider: AuthProviderRow, email: string): Promise<number | null> {
  const { db } = ctx;
  const wanted = new Set(provider.default_roles.map(roleNameKey));
  // A role renamed or deleted since the provider was saved is left out, not a failed sign-in.
  const roles = (await loadRoleGrants(db, 'all')).filter((r) => wanted.has(roleNameKey(r.name)));
  const roleIds = roles.map((r) => r.id);
  const grantor = { id: 0, name: provider.name, email: '', permissions: new Set(roles.flatMap((r) => r.permissions)) };
  const name = email.slice(0, email.lastIndexOf('@')).slice(0, 100) || email;
  try {
    return await writeTransaction(db, async (tx) => {
      const emailTaken = (await db.models.User.count({ where: { email }, paranoid: false, transaction: tx })) > 0;
      const decided = planCreate(
        grantor,
        { roles_ids: roleIds, permissions: [] },
        { emailTaken, roles: await roleFactsOf(db, tx, [], roleIds) },
      );
      if ('refusal' in decided) return null;
      const user = await insertUser(db, tx, { name, email, passwordHash: UNUSABLE_PASSWORD, isActive: true }, roleIds);
      await recordChange(db, tx, {
        actorId: null,
        action: 'user.create',
        targetType: 'user',
        targetIds: [user.id],
        changes: diff(null, { name, email, is_active: true, roles: roles.map((r) => r.name) }),
        context: { sso_provider: provider.name, sso_provider_id: provider.id },
        ip: ctx.ip,
        requestId: ctx.requestId,
        via: { kind: 'session' },
      });
      return user.id;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintError) return null;
    throw err;
  }
}
