import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { type RoleFacts, roleDeltaOf } from '../../domain/users.edit-plan.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { unknownRoleIds } from './users.write-repository.js';

/** What replacing a user's roles `current` with `next` depends on: the new ids naming no role, the roles in play. */
export async function roleFactsOf(
  db: Database,
  tx: Transaction,
  current: readonly number[],
  next: readonly number[],
): Promise<RoleFacts> {
  const { added, removed } = roleDeltaOf(current, next);
  return { unknown: await unknownRoleIds(db, tx, added), grants: await loadRoleGrants(db, [...added, ...removed], tx) };
}
