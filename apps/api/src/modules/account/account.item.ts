import type { Account } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { toIso } from '../../db/sql-date.js';
import { notFound } from '../../errors.js';
import { rolesOf } from '../users/users.item.js';

/** One's own account as the account page shows it: the row now, one's roles, one's second factor. */
export async function readAccount(db: Database, actor: Actor, tx?: Transaction): Promise<Account> {
  const user = await db.models.User.findByPk(actor.id, { transaction: tx ?? null });
  if (!user) throw notFound('Your account');
  const roles = await rolesOf(db, user.id, tx);
  return {
    item: {
      id: user.id,
      name: user.name,
      email: user.email,
      roles: roles.map((r) => r.name),
      two_factor: actor.twoFactor ?? { enrolled: false, required: false },
      last_sign_in_at: toIso(user.last_sign_in_at),
    },
  };
}
