import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { type DeferredBlock, withTriggersDeferred } from '../../db/trigger-deferral.js';
import { ENUM_KEYS_COLUMNS, enumKeysRows } from '../attributes/attribute-enum-keys.js';

/**
 * The enumeration keys' block of the users update trigger, deferred for a batch write of users'
 * status (`set: 'is_active'`) or trash dates (`'deleted_at'`): after the write, the list keys per
 * role and enumeration value (migration 0036) of exactly those users are brought up to date in
 * the same transaction: their status in one statement, or, for a trash change, the deleted
 * users' rows dropped and the restored users' rows written. `ids` must name every user the write
 * changes: their rows are locked by the caller.
 */
export function enumKeysBlock(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  set: 'is_active' | 'deleted_at',
): DeferredBlock {
  const run = (sql: string) => db.sequelize.query(sql, { replacements: { ids: [...ids] }, transaction: tx });
  return {
    flag: '@user_role_enum_keys_deferred',
    catchUp: async () => {
      if (set === 'is_active') {
        await run(`UPDATE user_role_enum_keys k JOIN users u ON u.id = k.user_id SET k.is_active = u.is_active
                    WHERE k.user_id IN (:ids)`);
        return;
      }
      await run(`DELETE k FROM user_role_enum_keys k JOIN users u ON u.id = k.user_id
                  WHERE k.user_id IN (:ids) AND u.deleted_at IS NOT NULL`);
      await run(`INSERT INTO user_role_enum_keys ${ENUM_KEYS_COLUMNS} ${enumKeysRows('u.id IN (:ids)')}
                 ON DUPLICATE KEY UPDATE text_value = VALUES(text_value), is_active = VALUES(is_active)`);
    },
  };
}

/**
 * Runs a batch write of one attribute's values for `ids` with the enumeration keys' values
 * triggers standing aside on this transaction's connection, then rewrites those users' keys of
 * that attribute in two statements, in the same transaction: with the triggers row by row, a bulk
 * setAttribute over 820 165 users ran at 9 033 users a second, deferred at 11 233
 * (docs/decisions.md). The users' rows are locked by the caller. An attribute that is not an
 * enumeration has no keys: the second statement finds nothing to write.
 */
export function withValueKeysDeferred(
  db: Database,
  tx: Transaction,
  attributeId: number,
  ids: readonly number[],
  write: () => Promise<void>,
): Promise<void> {
  if (ids.length === 0) return write();
  const run = (sql: string) =>
    db.sequelize.query(sql, { replacements: { attributeId, ids: [...ids] }, transaction: tx });
  const catchUp = async () => {
    await run('DELETE FROM user_role_enum_keys WHERE user_id IN (:ids) AND attribute_id = :attributeId');
    await run(
      `INSERT INTO user_role_enum_keys ${ENUM_KEYS_COLUMNS} ${enumKeysRows('v.attribute_id = :attributeId AND v.user_id IN (:ids)')}`,
    );
  };
  return withTriggersDeferred(db, tx, [{ flag: '@user_role_enum_keys_deferred', catchUp }], write);
}
