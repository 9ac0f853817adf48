import type { AttributeField, UserAttributes } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { visibleDefinitionsOf } from '../../repositories/attribute-definitions.js';
import { type AttributeDefinition, storedValue, toAttributeField } from './attributes.repository.js';

export { visibleDefinitionsOf } from '../../repositories/attribute-definitions.js';

/** Ids per IN (): a page, a form or an export batch in one statement. */
const IDS_PER_STATEMENT = 1_000;

/**
 * The stored values of `definitions` for `userIds`, by user and then by key; a user with no value
 * of any of them has an empty record. One statement per thousand users, by the `user_id` index.
 */
export async function valuesOf(
  db: Database,
  userIds: readonly number[],
  definitions: readonly AttributeDefinition[],
  tx?: Transaction,
): Promise<Map<number, UserAttributes>> {
  const out = new Map<number, UserAttributes>(userIds.map((id) => [id, {}]));
  if (userIds.length === 0 || definitions.length === 0) return out;
  const byId = new Map(definitions.map((d) => [d.id, d]));
  for (let i = 0; i < userIds.length; i += IDS_PER_STATEMENT) {
    const ids = userIds.slice(i, i + IDS_PER_STATEMENT);
    const rows = await db.sequelize.query<{
      user_id: number | string;
      attribute_id: number | string;
      text_value: string | null;
      number_value: number | string | null;
    }>(
      `SELECT user_id, attribute_id, text_value, number_value FROM user_attribute_values
        WHERE user_id IN (:ids) AND attribute_id IN (:attributes)`,
      {
        replacements: { ids, attributes: [...byId.keys()] },
        type: QueryTypes.SELECT,
        ...(tx ? { transaction: tx } : {}),
      },
    );
    for (const r of rows) {
      const definition = byId.get(Number(r.attribute_id));
      const value = definition ? storedValue(definition.type, r) : null;
      const record = out.get(Number(r.user_id));
      if (definition && record && value !== null) record[definition.key] = value;
    }
  }
  return out;
}

/** One user's values (see {@link valuesOf}). */
export async function valuesOfUser(
  db: Database,
  userId: number,
  definitions: readonly AttributeDefinition[],
  tx?: Transaction,
): Promise<UserAttributes> {
  return (await valuesOf(db, [userId], definitions, tx)).get(userId) ?? {};
}

/** The attributes a user form offers `actor`: those it may see, which are those it may write. */
export async function attributeFieldsFor(db: Database, actor: Pick<Actor, 'permissions'>): Promise<AttributeField[]> {
  return (await visibleDefinitionsOf(db, actor)).map(toAttributeField);
}

/** A user's values as `actor` may see them. */
export async function visibleValuesOfUser(
  db: Database,
  actor: Pick<Actor, 'permissions'>,
  userId: number,
  tx?: Transaction,
): Promise<UserAttributes> {
  return valuesOfUser(db, userId, await visibleDefinitionsOf(db, actor, tx), tx);
}
