import type { Transaction } from 'sequelize';
import type { Actor } from '../auth/actor.js';
import type { Database } from '../db/database.js';
import type { User } from '../db/models/index.js';
import { notFound } from '../errors.js';
import { permissionsBeyond } from './held-permissions.js';
import { lockUsers } from './users.locks.js';
import { outranked, refuse } from '../domain/users.rules.js';
import { liveUser, toTarget } from './users.targets.js';

/**
 * The account behind another user's credentials routes (their API tokens, their sessions): a
 * live user (404 otherwise) who does not outrank the caller (403 OUTRANKED). Seeing or minting a
 * user's credentials is as good as acting as them, so the privilege ceiling (`outranked`)
 * applies as it does to changing the account. Given a transaction, the user's row is locked
 * first, so the answer holds until commit (roles are replaced only under that lock).
 */
export async function accountWithinCeiling(
  ctx: { db: Database; actor: Actor },
  tx: Transaction | null,
  userId: number,
): Promise<User> {
  const user = tx ? liveUser(await lockUsers(ctx.db, tx, [userId]), userId) : await ctx.db.models.User.findByPk(userId);
  if (!user || user.deleted_at) throw notFound('The user');
  const held = await permissionsBeyond(ctx.db, tx, ctx.actor, [user.id]);
  const ceiling = outranked(ctx.actor, { kind: 'update', target: toTarget(user, held.get(user.id)) });
  if (ceiling) refuse(ceiling);
  return user;
}
