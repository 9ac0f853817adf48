import type { Transaction } from 'sequelize';
import { AppError, notFound } from '../../errors.js';
import type { User } from '../../db/models/index.js';
import { lockUsers } from '../../domain/users.locks.js';
import type { WriteContext } from './users.write-support.js';

/**
 * The locked user a restore or purge acts on: 404 when there is none, NOT_DELETED (422) when it
 * is live. Both routes' permissions (users.restore, users.forceDelete) are what lets a caller see
 * the trash, so no separate visibility check is needed here.
 */
export async function lockTrashedUser(ctx: WriteContext, tx: Transaction, id: number): Promise<User> {
  const user = (await lockUsers(ctx.db, tx, [id])).get(id);
  if (!user) throw notFound('The user');
  if (!user.deleted_at) throw new AppError('NOT_DELETED', `${user.name} is not deleted.`);
  return user;
}
