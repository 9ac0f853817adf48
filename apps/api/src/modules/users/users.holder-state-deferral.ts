import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { DeferredBlock } from '../../db/trigger-deferral.js';

/**
 * The attribute values' block of the users update trigger, deferred for a batch write of users'
 * trash dates: after the write, the holder's trash state is set on the values of exactly those
 * users in one statement, in the same transaction (migration 0035). Row by row, deleting 9 500
 * users with six values each took 8.2–10.9 s; with the values set in one statement after the
 * batch, 6.4–8.1 s (docs/decisions.md). `ids` must name every user the write changes: their rows
 * are locked by the caller.
 */
export function holderStateBlock(db: Database, tx: Transaction, ids: readonly number[]): DeferredBlock {
  return {
    flag: '@user_attribute_values_deferred',
    catchUp: () =>
      db.sequelize.query(
        `UPDATE users u JOIN user_attribute_values v ON v.user_id = u.id
            SET v.user_live = (u.deleted_at IS NULL)
          WHERE u.id IN (:ids)`,
        { replacements: { ids: [...ids] }, transaction: tx },
      ),
  };
}
