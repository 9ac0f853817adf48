import type {
  Attribute,
  AttributeSensitivity,
  AttributeType,
  AttributeValidators,
  AttributeValue,
} from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import {
  type AttributeDefinition,
  type AttributeRecord,
  toAttributeField,
  toDefinition,
} from '../../repositories/attribute-definitions.js';

export {
  type AttributeDefinition,
  listDefinitions,
  toAttributeField,
} from '../../repositories/attribute-definitions.js';

/**
 * The attributes named by `keys` as they are now, share-locked for the transaction on MariaDB: a
 * write of their values waits for a schema change under way (which holds its definition's row
 * for its walk over the values) and holds the next one until it commits. A locking read sees the
 * latest definition even when the transaction's snapshot is older.
 */
export async function lockDefinitionsShared(
  db: Database,
  tx: Transaction,
  keys: readonly string[],
): Promise<AttributeDefinition[]> {
  if (keys.length === 0) return [];
  const share = db.dialect === 'mysql' ? ' LOCK IN SHARE MODE' : '';
  const rows = await db.sequelize.query<AttributeRecord>(
    `SELECT * FROM attributes WHERE \`key\` IN (:keys) ORDER BY id${share}`,
    { replacements: { keys: [...keys] }, type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.map(toDefinition);
}

/** The attribute `key` (locked for the transaction's writes on MariaDB when `lock`), or 404. */
export async function findDefinition(
  db: Database,
  key: string,
  tx?: Transaction,
  lock = false,
): Promise<AttributeDefinition> {
  const forUpdate = lock && db.dialect === 'mysql' ? ' FOR UPDATE' : '';
  const [row] = await db.sequelize.query<AttributeRecord>(`SELECT * FROM attributes WHERE \`key\` = :key${forUpdate}`, {
    replacements: { key },
    type: QueryTypes.SELECT,
    ...(tx ? { transaction: tx } : {}),
  });
  if (!row) throw new AppError('NOT_FOUND', `There is no attribute with the key "${key}".`);
  return toDefinition(row);
}

/** How many users hold a value of each attribute (one range of the primary key each). */
export async function holdersOf(db: Database, ids: readonly number[], tx?: Transaction): Promise<Map<number, number>> {
  const counts = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const rows = await db.sequelize.query<{ attribute_id: number | string; n: number | string }>(
    'SELECT attribute_id, COUNT(*) AS n FROM user_attribute_values WHERE attribute_id IN (:ids) GROUP BY attribute_id',
    { replacements: { ids: [...ids] }, type: QueryTypes.SELECT, ...(tx ? { transaction: tx } : {}) },
  );
  for (const r of rows) counts.set(Number(r.attribute_id), Number(r.n));
  return counts;
}

/** The definition as answered: what is declared, how many hold a value, when. */
export function toAttribute(d: AttributeDefinition, holders: number): Attribute {
  return {
    ...toAttributeField(d),
    holders,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

/** What the audit keeps of a definition (everything people declared). */
export function auditedDefinition(
  d: Pick<
    AttributeDefinition,
    'key' | 'label' | 'type' | 'values' | 'required' | 'unique' | 'validators' | 'sensitivity' | 'description'
  >,
) {
  return {
    key: d.key,
    label: d.label,
    type: d.type,
    values: d.values,
    required: d.required,
    unique: d.unique,
    validators: d.validators,
    sensitivity: d.sensitivity,
    description: d.description,
  };
}

/** The columns a definition is written to. */
export function definitionColumns(d: {
  label: string;
  type: AttributeType;
  values?: readonly string[] | null | undefined;
  required: boolean;
  unique: boolean;
  validators: AttributeValidators;
  sensitivity: AttributeSensitivity;
  description?: string | null | undefined;
}) {
  return {
    label: d.label,
    type: d.type,
    enum_values: d.type === 'enum' && d.values ? JSON.stringify(d.values) : null,
    required: d.required,
    is_unique: d.unique,
    validators: JSON.stringify(d.validators),
    sensitivity: d.sensitivity,
    description: d.description ?? null,
  };
}

/** A stored value's columns: text types in `text_value`, the rest in `number_value`. */
export function valueColumns(value: AttributeValue, unique: boolean) {
  if (typeof value === 'string') return { text_value: value, number_value: null, unique_value: unique ? value : null };
  const n = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  return { text_value: null, number_value: n, unique_value: unique ? String(n) : null };
}

/** A stored value read back, in the attribute's own type. */
export function storedValue(
  type: AttributeType,
  row: { text_value: string | null; number_value: number | string | null },
): AttributeValue | null {
  return storedValueOf(type, row.text_value, row.number_value);
}

/** `storedValue` from the two columns as they were read. */
export function storedValueOf(
  type: AttributeType,
  text: string | null,
  number: number | string | null,
): AttributeValue | null {
  if (text !== null) return text;
  if (number === null) return null;
  const n = Number(number);
  return type === 'boolean' ? n === 1 : n;
}
