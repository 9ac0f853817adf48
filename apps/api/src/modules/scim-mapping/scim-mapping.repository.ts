import { SCIM_ENTERPRISE_FIELDS, type ScimEnterpriseField, type ScimMapping } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';

/** One mapped field: the attribute it fills, as the door needs it. */
export interface MappedField {
  field: ScimEnterpriseField;
  attributeId: number;
  key: string;
  type: string;
}

const isField = (f: string): f is ScimEnterpriseField => (SCIM_ENTERPRISE_FIELDS as readonly string[]).includes(f);

/** The mapped fields, each with its attribute (a removed attribute's mapping went with it). */
export async function mappedFields(db: Database, tx?: Transaction): Promise<MappedField[]> {
  const rows = await db.sequelize.query<{ field: string; attribute_id: number | string; key: string; type: string }>(
    `SELECT m.field, m.attribute_id, a.\`key\`, a.type FROM scim_enterprise_mappings m
       JOIN attributes a ON a.id = m.attribute_id ORDER BY m.field`,
    { type: QueryTypes.SELECT, ...(tx ? { transaction: tx } : {}) },
  );
  return rows.flatMap((r) =>
    isField(r.field) ? [{ field: r.field, attributeId: Number(r.attribute_id), key: r.key, type: r.type }] : [],
  );
}

/** The mapping as the API answers it: every field, null where none is mapped. */
export function mappingOf(fields: readonly MappedField[]): ScimMapping {
  const mapping = Object.fromEntries(SCIM_ENTERPRISE_FIELDS.map((f) => [f, null])) as ScimMapping;
  for (const m of fields) mapping[m.field] = m.key;
  return mapping;
}

/** Replaces the mapping whole, in the caller's transaction. */
export async function replaceMapping(
  db: Database,
  tx: Transaction,
  rows: readonly { field: ScimEnterpriseField; attributeId: number }[],
): Promise<void> {
  await db.sequelize.query('DELETE FROM scim_enterprise_mappings', { transaction: tx });
  if (rows.length === 0) return;
  await db.sequelize.query(
    `INSERT INTO scim_enterprise_mappings (field, attribute_id) VALUES ${rows.map(() => '(?, ?)').join(', ')}`,
    { replacements: rows.flatMap((r) => [r.field, r.attributeId]), transaction: tx },
  );
}
