import type { AttributeValue } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';
import { type AttributeDefinition, storedValue } from '../attributes/attributes.repository.js';

/**
 * An export batch's attribute values, by user, in the order of `definitions` (null where a user
 * holds none), read along the table's primary key
 * (attribute_id, user_id): for a batch in id order, one range of user ids per attribute, rows
 * read where they lie. Through the (user_id) index instead, each of a batch's 6 000 values was a
 * second lookup into the table: at a million users with six attributes the export's SQL took
 * 18.9 s against 2.2 s without them. Ids far apart (a batch sorted by another column) are looked
 * up one by one, still by the primary key.
 */
interface StoredRow {
  user_id: number | string;
  attribute_id: number | string;
  text_value: string | null;
  number_value: number | string | null;
}

export async function exportValuesOf(
  db: Database,
  ids: readonly number[],
  definitions: readonly AttributeDefinition[],
): Promise<Map<number, Array<AttributeValue | null>>> {
  const out = new Map<number, Array<AttributeValue | null>>();
  if (ids.length === 0 || definitions.length === 0) return out;
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  for (const id of ids) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  const dense = high - low < 2 * ids.length;
  // Each attribute's place in a user's values: the export asks them in `definitions`' order.
  const place = new Map(definitions.map((d, i) => [d.id, i]));
  const force = db.dialect === 'mysql' ? ' FORCE INDEX (PRIMARY)' : '';
  // As the driver returns them: a SELECT's result is copied row by row first (six per user here).
  const [rows] = await db.sequelize.query(
    `SELECT user_id, attribute_id, text_value, number_value FROM user_attribute_values${force}
      WHERE attribute_id IN (:attributes) AND ${dense ? 'user_id BETWEEN :low AND :high' : 'user_id IN (:ids)'}`,
    {
      replacements: { attributes: [...place.keys()], low, high, ids: [...ids] },
      type: QueryTypes.RAW,
      ...MAY_READ_REPLICA,
    },
  );
  for (const r of rows as StoredRow[]) {
    const i = place.get(Number(r.attribute_id));
    if (i === undefined) continue;
    const value = storedValue((definitions[i] as AttributeDefinition).type, r);
    if (value === null) continue;
    const id = Number(r.user_id);
    let held = out.get(id);
    if (!held) {
      held = new Array<AttributeValue | null>(definitions.length).fill(null);
      out.set(id, held);
    }
    held[i] = value;
  }
  return out;
}
