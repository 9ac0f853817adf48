import type { AttributeValue } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';
import { valueColumnOf } from '../../domain/attributes.list-query.js';
import { type AttributeDefinition, storedValueOf } from '../attributes/attributes.repository.js';

/** One attribute's values in a batch: its holders and, at the same places, their values. */
export interface HeldColumn {
  ids: number[];
  values: AttributeValue[];
}

/**
 * The separator of a batch's values in one text: the record separator, a control character, which
 * no value may hold (contracts' checkAttributeValue). A value that holds it anyway (written by
 * hand) sends its attribute's batch down the row by row path.
 */
const SEPARATOR = '\u001e';
const COLON = 58;
const ZERO = 48;

/** The most users one call reads: a batch's longest text stays under the connections' group_concat_max_len. */
const MOST_USERS = 10_000;

/**
 * One attribute's values in a batch, in the key's order, as one text: `user_id:value` for each
 * holder (the value's text, or its number as text), SEPARATOR between them; `n` of them, and
 * `odd` holders whose value is not in the column the type puts it in.
 */
interface ConcatenatedRow {
  attribute_id: number | string;
  n: number | string;
  odd: number | string;
  vals: string;
}

interface StoredRow {
  user_id: number | string;
  attribute_id: number | string;
  text_value: string | null;
  number_value: number | string | null;
}

/**
 * An export batch's attribute values, one column per definition, in `definitions`' order.
 *
 * Read along the table's primary key (attribute_id, user_id): for a batch in id order, one range
 * of user ids per attribute, rows read where they lie. Through the (user_id) index instead, each
 * of a batch's 6 000 values was a second lookup into the table: at a million users with six
 * attributes the export's SQL took 18.9 s against 2.2 s without them. Ids far apart (a batch
 * sorted by another column) are looked up one by one, still by the primary key.
 *
 * Each attribute's values come back as one text, concatenated in the key's order (the group is
 * one run of the index: no sort), and are read out of it in one pass. Row by row, the driver
 * parsed 5.7 M rows of four fields for a million users with six attributes, each an object and
 * its strings: 1.5–2.2 s of CPU and most of the garbage the attribute columns added to a CSV
 * export (docs/PERFORMANCE.md). An attribute whose text cannot be read exactly (readColumn) is
 * read again row by row.
 */
export async function exportValuesOf(
  db: Database,
  ids: readonly number[],
  definitions: readonly AttributeDefinition[],
): Promise<HeldColumn[]> {
  const columns = definitions.map((): HeldColumn => ({ ids: [], values: [] }));
  if (ids.length === 0 || definitions.length === 0) return columns;
  if (ids.length > MOST_USERS) throw new Error(`exportValuesOf reads at most ${MOST_USERS} users at a time`);
  const scope = userScope(db, ids);
  // Each attribute's place among the columns: the export asks them in `definitions`' order.
  const place = new Map(definitions.map((d, i) => [d.id, i]));
  const byColumn = { text_value: [] as number[], number_value: [] as number[] };
  for (const d of definitions) byColumn[valueColumnOf(d.type)].push(d.id);
  // One SELECT per value column, each concatenating that column alone. `odd` counts the rows
  // whose value is not where the type puts it: a retyping job writes the values in their new
  // column before the definition changes. Those attributes are read row by row, as the record
  // reads them (storedValueOf); one COALESCE(text_value, number_value) for all exported a string
  // attribute's 4711 held as a number as the text "4711.0" on SQLite meanwhile.
  // The statements alone: 2.34 s against 2.63–2.72 s per million users with six attributes.
  const parts = (['text_value', 'number_value'] as const)
    .filter((column) => byColumn[column].length > 0)
    .map((column) => {
      const concat =
        db.dialect === 'mysql'
          ? `GROUP_CONCAT(user_id, ':', ${column} SEPARATOR :separator)`
          : `group_concat(user_id || ':' || ${column}, :separator)`;
      const odd =
        column === 'text_value' ? 'COUNT(*) - COUNT(text_value)' : 'COUNT(*) - COUNT(number_value) + COUNT(text_value)';
      return `SELECT attribute_id, COUNT(${column}) AS n, ${odd} AS odd, ${concat} AS vals
        FROM user_attribute_values${scope.force}
       WHERE attribute_id IN (:${column}) AND ${scope.where}
       GROUP BY attribute_id`;
    });
  const rows = await db.sequelize.query<ConcatenatedRow>(parts.join(' UNION ALL '), {
    replacements: { ...byColumn, separator: SEPARATOR, ...scope.replacements },
    type: QueryTypes.SELECT,
    ...MAY_READ_REPLICA,
  });
  const rowByRow: number[] = [];
  for (const row of rows) {
    const attributeId = Number(row.attribute_id);
    const i = place.get(attributeId);
    if (i === undefined) continue;
    const column = Number(row.odd) === 0 ? readColumn(row, (definitions[i] as AttributeDefinition).type) : null;
    if (column) columns[i] = column;
    else rowByRow.push(attributeId);
  }
  if (rowByRow.length > 0) {
    const stored = await db.sequelize.query(
      `SELECT user_id, attribute_id, text_value, number_value FROM user_attribute_values${scope.force}
        WHERE attribute_id IN (:attributes) AND ${scope.where}`,
      { replacements: { attributes: rowByRow, ...scope.replacements }, type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
    );
    for (const r of stored as StoredRow[]) {
      const i = place.get(Number(r.attribute_id)) as number;
      const held = storedValueOf((definitions[i] as AttributeDefinition).type, r.text_value, r.number_value);
      if (held === null) continue;
      const column = columns[i] as HeldColumn;
      column.ids.push(Number(r.user_id));
      column.values.push(held);
    }
  }
  return columns;
}

/**
 * A concatenated row's holders and values, in the attribute's type, read in one pass (a string
 * per text value, none for the ids or the numbers); null when the text cannot be read exactly:
 * a value holding the separator (pieces and values do not agree), or one not in its type's column
 * (a number that does not read as one). Those are read again row by row.
 */
function readColumn(row: ConcatenatedRow, type: AttributeDefinition['type']): HeldColumn | null {
  const n = Number(row.n);
  const text = String(row.vals ?? '');
  const asText = valueColumnOf(type) === 'text_value';
  const ids = new Array<number>(n);
  const values = new Array<AttributeValue>(n);
  let at = 0;
  for (let k = 0; k < n; k++) {
    let id = 0;
    let c = text.charCodeAt(at);
    for (; c !== COLON; c = text.charCodeAt(++at)) {
      if (!(c >= ZERO && c <= ZERO + 9)) return null;
      id = id * 10 + (c - ZERO);
    }
    const end = text.indexOf(SEPARATOR, ++at);
    // Every piece but the last ends at a separator, and the last at the end of the text.
    if ((end === -1) !== (k === n - 1)) return null;
    const raw = text.slice(at, end === -1 ? text.length : end);
    at = end + 1;
    ids[k] = id;
    if (asText) {
      values[k] = raw;
      continue;
    }
    const number = Number(raw);
    if (raw === '' || Number.isNaN(number)) return null;
    values[k] = type === 'boolean' ? number === 1 : number;
  }
  return { ids, values };
}

/** The batch's users as a condition on user_id: one range when their ids lie close, else the list. */
function userScope(db: Database, ids: readonly number[]) {
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  for (const id of ids) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  const dense = high - low < 2 * ids.length;
  return {
    force: db.dialect === 'mysql' ? ' FORCE INDEX (PRIMARY)' : '',
    where: dense ? 'user_id BETWEEN :low AND :high' : 'user_id IN (:ids)',
    replacements: dense ? { low, high } : { ids: [...ids] },
  };
}
