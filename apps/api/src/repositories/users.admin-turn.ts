import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { RetryTransaction } from '../db/transaction.js';
import { activeAdminsInPlay, holdsRole, lockAdministratorChanges, lockUsers, roleIdByName } from './users.locks.js';
import { liveUser } from './users.targets.js';

/**
 * A change to one user that could take an administrator away (deactivate, delete, roles
 * replaced) locks the user and, when the user holds the admin role, takes the administrators'
 * turn first (before the user's row: one lock order for every writer). Changes to everybody
 * else — nearly all of them — never wait for each other on that turn.
 *
 * Whether the user is an administrator is read before the turn is taken, so it is checked
 * again under the user's lock (a role change needs that lock); if the user became one in
 * between, the transaction runs again, this time in turn.
 *
 * Returns the locked live user (404 otherwise) and the active administrators the rules must see.
 */
export async function lockForAdminRemoval(db: Database, tx: Transaction, userId: number, adminRole: string) {
  const admin = await holdsRole(db, tx, userId, adminRole);
  if (admin) await lockAdministratorChanges(db, tx);
  const user = liveUser(await lockUsers(db, tx, [userId]), userId);
  if (!admin && (await holdsRole(db, tx, userId, adminRole))) {
    throw new RetryTransaction('the user became an administrator before its row was locked');
  }
  const admins = admin
    ? await activeAdminsInPlay(db, tx, await roleIdByName(db, tx, adminRole), [userId])
    : new Set<number>();
  return { user, admins };
}
