import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from './database.js';

/**
 * Runs a batch write on MySQL/MariaDB with one trigger block standing aside on this transaction's
 * connection (the block tests the session variable `flag`), then `catchUp`, in the same
 * transaction, does that block's work for the whole batch in one statement. On SQLite the
 * triggers do the work as usual and `catchUp` does not run.
 *
 * The flag is reset even when the write fails: the connection goes back to the pool, and its next
 * user's writes must be kept by the trigger (MySQL keeps a connection usable after a failed
 * statement).
 */
export async function withTriggerDeferred(
  db: Database,
  tx: Transaction,
  flag:
    | '@user_stats_deferred'
    | '@user_role_keys_deferred'
    | '@user_attribute_values_deferred'
    | '@user_role_enum_keys_deferred',
  write: () => Promise<void>,
  catchUp: () => Promise<unknown>,
): Promise<void> {
  if (db.dialect !== 'mysql') return write();
  const set = (value: '1' | 'NULL') =>
    db.sequelize.query(`SET ${flag} = ${value}`, { transaction: tx, type: QueryTypes.RAW });
  await set('1');
  try {
    await write();
  } finally {
    await set('NULL');
  }
  await catchUp();
}
