import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from './database.js';

/** The session variables the MariaDB trigger blocks test before doing their row's work. */
export type TriggerFlag =
  | '@user_stats_deferred'
  | '@user_role_keys_deferred'
  | '@user_attribute_values_deferred'
  | '@user_role_enum_keys_deferred';

/** One trigger block standing aside for a batch write, and what does its work for the whole batch after. */
export interface DeferredBlock {
  flag: TriggerFlag;
  catchUp: () => Promise<unknown>;
}

/**
 * Runs a batch write on MySQL/MariaDB with trigger blocks standing aside on this transaction's
 * connection (each block tests its session variable), then each block's `catchUp`, in order and
 * in the same transaction, does that block's work for the whole batch in a statement or two. The
 * flags are set and reset together, one statement each way however many blocks stand aside. On
 * SQLite the triggers do the work as usual and no `catchUp` runs.
 *
 * The flags are reset even when the write fails: the connection goes back to the pool, and its
 * next user's writes must be kept by the triggers (MySQL keeps a connection usable after a failed
 * statement).
 */
export async function withTriggersDeferred(
  db: Database,
  tx: Transaction,
  blocks: readonly DeferredBlock[],
  write: () => Promise<void>,
): Promise<void> {
  if (db.dialect !== 'mysql' || blocks.length === 0) return write();
  const set = (value: '1' | 'NULL') =>
    db.sequelize.query(`SET ${blocks.map((b) => `${b.flag} = ${value}`).join(', ')}`, {
      transaction: tx,
      type: QueryTypes.RAW,
    });
  await set('1');
  try {
    await write();
  } finally {
    await set('NULL');
  }
  for (const block of blocks) await block.catchUp();
}
