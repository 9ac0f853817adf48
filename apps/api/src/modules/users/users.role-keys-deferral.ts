import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';

/**
 * Runs a batch write of users' status or trash dates with the list keys' trigger standing aside
 * on this transaction's connection, then brings the role keys of exactly those users up to date
 * in one statement, in the same transaction (migration 0034). A trigger run per row cost about
 * 45 µs per user at a million users, the statement after the batch a fraction of it
 * (docs/decisions.md). `ids` must name every user `write` changes: their rows are locked by the
 * caller. On SQLite the trigger does the work as usual.
 */
export async function withRoleKeysDeferred(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  write: () => Promise<void>,
): Promise<void> {
  if (db.dialect !== 'mysql' || ids.length === 0) return write();
  const run = (sql: string) => db.sequelize.query(sql, { transaction: tx });
  await run('SET @user_role_keys_deferred = 1');
  try {
    await write();
  } finally {
    // The connection goes back to the pool: its next user's writes must be kept by the trigger.
    await run('SET @user_role_keys_deferred = NULL');
  }
  await db.sequelize.query(
    `UPDATE user_role_keys k JOIN users u ON u.id = k.user_id
        SET k.is_active = u.is_active, k.deleted_at = u.deleted_at
      WHERE k.user_id IN (:ids)`,
    { replacements: { ids: [...ids] }, transaction: tx },
  );
}
