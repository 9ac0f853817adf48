import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { withTriggerDeferred } from '../../db/trigger-deferral.js';

/**
 * Runs a batch write of users' status or trash dates with the list keys' block of the users
 * update trigger standing aside on this transaction's connection, then brings the role keys of
 * exactly those users up to date in one statement, in the same transaction (migration 0034).
 * Kept row by row, the keys' index entries cost a bulk job more than one statement after each
 * batch (docs/decisions.md, "List keys per role"). `ids` must name every user `write` changes:
 * their rows are locked by the caller. On SQLite the trigger does the work as usual.
 */
export function withRoleKeysDeferred(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  write: () => Promise<void>,
): Promise<void> {
  if (ids.length === 0) return write();
  return withTriggerDeferred(db, tx, '@user_role_keys_deferred', write, () =>
    db.sequelize.query(
      `UPDATE user_role_keys k JOIN users u ON u.id = k.user_id
          SET k.is_active = u.is_active, k.deleted_at = u.deleted_at
        WHERE k.user_id IN (:ids)`,
      { replacements: { ids: [...ids] }, transaction: tx },
    ),
  );
}
