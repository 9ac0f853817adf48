import { QueryTypes } from 'sequelize';
import type { AttributeType } from '@app/contracts';
import type { Database } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';

/**
 * The list keys per role and enumeration value (migration 0036) of one attribute, when a change
 * of its type adds it to them or takes it out. The triggers decide at each write from the type
 * the attribute has then, so from the commit of the new type on they keep the attribute's rows as
 * that type says; the rows already there (or missing) are put right here, BATCH holders at a
 * time, each batch its own short transaction, and only then may a list count on them.
 */
const BATCH = 5_000;

/**
 * The keys' rows as the values, the users and their roles say, for the values `where` picks (a
 * fixed condition on `v`, the values, or `u`, their users, with named replacements): one row per
 * live holder of an enumeration value and role they hold. Every writer of the keys outside the
 * triggers (the deferred catch-ups, the rebuild after a retype) selects through this one query.
 */
export const enumKeysRows = (where: string): string =>
  `SELECT v.user_id, v.attribute_id, ur.role_id, v.text_value, u.is_active
     FROM user_attribute_values v JOIN attributes a ON a.id = v.attribute_id AND a.type = 'enum'
     JOIN users u ON u.id = v.user_id JOIN user_roles ur ON ur.user_id = v.user_id
    WHERE ${where} AND u.deleted_at IS NULL AND v.text_value IS NOT NULL`;

/** The keys' columns, in the order `enumKeysRows` selects them. */
export const ENUM_KEYS_COLUMNS = '(user_id, attribute_id, role_id, text_value, is_active)';

/** Whether a change from `before` to `after` moves the attribute into or out of the keys. */
export const retypesEnumKeys = (before: AttributeType, after: AttributeType): boolean =>
  (before === 'enum') !== (after === 'enum');

/**
 * Rebuilds the attribute's keys, walking its holders by user id, then marks them ready when the
 * definition is still the one committed at `version` (its `updated_at`): a later change has its
 * own rebuild to finish.
 */
export async function rebuildEnumKeys(db: Database, attributeId: number, version: Date): Promise<void> {
  const insert = db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  let after = 0;
  for (;;) {
    const rows = await db.sequelize.query<{ user_id: number | string }>(
      `SELECT user_id FROM user_attribute_values WHERE attribute_id = :id AND user_id > :after
        ORDER BY user_id LIMIT ${BATCH}`,
      { replacements: { id: attributeId, after }, type: QueryTypes.SELECT },
    );
    const last = rows.at(-1);
    if (!last) break;
    const range = { id: attributeId, from: after + 1, to: Number(last.user_id) };
    await writeTransaction(db, async (tx) => {
      await db.sequelize.query(
        'DELETE FROM user_role_enum_keys WHERE user_id BETWEEN :from AND :to AND attribute_id = :id',
        { replacements: range, transaction: tx },
      );
      // Rows of an enumeration only: for any other type the select finds none.
      await db.sequelize.query(
        `${insert} INTO user_role_enum_keys ${ENUM_KEYS_COLUMNS}
         ${enumKeysRows('v.attribute_id = :id AND v.user_id BETWEEN :from AND :to')}`,
        { replacements: range, transaction: tx },
      );
    });
    after = range.to;
  }
  await db.sequelize.query('UPDATE attributes SET enum_keys_ready = 1 WHERE id = :id AND updated_at = :version', {
    replacements: { id: attributeId, version },
  });
}
