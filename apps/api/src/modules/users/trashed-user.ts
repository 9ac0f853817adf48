import type { Transaction } from 'sequelize';
import { AppError, notFound } from '../../errors.js';
import type { User } from '../../db/models/index.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { trashRefusal } from '../../domain/users.trash.js';
import type { HandlerContext } from '../../context.js';

/**
 * The locked user a restore or purge acts on: 404 when there is none, NOT_DELETED (422) when it
 * is live. Both routes' permissions (users.restore, users.forceDelete) are what lets a caller see
 * the trash, so no separate visibility check is needed here.
 */
export async function lockTrashedUser(ctx: HandlerContext, tx: Transaction, id: number): Promise<User> {
  const user = (await lockUsers(ctx.db, tx, [id])).get(id);
  if (!user) throw notFound('The user');
  const place = trashRefusal('restore', { name: user.name, deleted: user.deleted_at !== null });
  if (place) throw new AppError(place.code, place.message);
  return user;
}
