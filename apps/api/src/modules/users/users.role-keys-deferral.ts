import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { type DeferredBlock, withTriggersDeferred } from '../../db/trigger-deferral.js';

/**
 * The list keys' block of the users update trigger, deferred for a batch write of users' status
 * or trash dates: after the write, the role keys of exactly those users are brought up to date
 * in one statement, in the same transaction (migration 0034). Kept row by row, the keys' index
 * entries cost a bulk job more than one statement after each batch (docs/decisions.md, "List
 * keys per role"). `ids` must name every user the write changes: their rows are locked by the
 * caller.
 */
export function roleKeysBlock(db: Database, tx: Transaction, ids: readonly number[]): DeferredBlock {
  return {
    flag: '@user_role_keys_deferred',
    catchUp: () =>
      db.sequelize.query(
        `UPDATE user_role_keys k JOIN users u ON u.id = k.user_id
            SET k.is_active = u.is_active, k.deleted_at = u.deleted_at
          WHERE k.user_id IN (:ids)`,
        { replacements: { ids: [...ids] }, transaction: tx },
      ),
  };
}

/** Runs `write` with the role keys' block deferred (`roleKeysBlock`). On SQLite the trigger does the work. */
export function withRoleKeysDeferred(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  write: () => Promise<void>,
): Promise<void> {
  if (ids.length === 0) return write();
  return withTriggersDeferred(db, tx, [roleKeysBlock(db, tx, ids)], write);
}
