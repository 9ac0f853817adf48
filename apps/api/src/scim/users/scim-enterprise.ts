import { SCIM_ENTERPRISE_FIELDS, SCIM_SCHEMAS, type UserAttributes, type UserAttributesInput } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { valuesOf, visibleDefinitionsOf } from '../../modules/attributes/attribute-values.repository.js';
import type { AttributeDefinition } from '../../modules/attributes/attributes.repository.js';
import { type MappedField, mappedFields } from '../../modules/scim-mapping/scim-mapping.repository.js';
import { invalidValue } from '../scim-error.js';

/**
 * SCIM's enterprise extension on a user, through the administrator's mapping
 * (`/scim/enterprise-mapping`): a mapped field is the custom attribute's value, read and written
 * by the same rules as every door (a sensitive attribute is no field for a token whose owner may
 * not see it); a field with no mapping is ignored.
 */

/** The mapped fields the caller may see and their attributes' definitions, read once per request. */
export interface EnterpriseMapping {
  fields: MappedField[];
  definitions: AttributeDefinition[];
}

export async function enterpriseMappingFor(
  db: Database,
  actor: Pick<Actor, 'permissions'>,
): Promise<EnterpriseMapping> {
  const [mapped, visible] = await Promise.all([mappedFields(db), visibleDefinitionsOf(db, actor)]);
  const byId = new Map(visible.map((d) => [d.id, d]));
  const fields = mapped.filter((m) => byId.has(m.attributeId));
  return { fields, definitions: fields.map((m) => byId.get(m.attributeId) as AttributeDefinition) };
}

/** Each user's extension object (null when no mapped field holds a value), one read for them all. */
export async function extensionsOf(
  db: Database,
  mapping: EnterpriseMapping,
  ids: readonly number[],
  baseUrl: string,
): Promise<Map<number, Record<string, unknown> | null>> {
  const out = new Map<number, Record<string, unknown> | null>();
  if (mapping.fields.length === 0) return out;
  const values = await valuesOf(db, ids, mapping.definitions);
  for (const id of ids) out.set(id, enterpriseOf(mapping.fields, values.get(id) ?? {}, baseUrl));
  return out;
}

/** A user's extension object from their attribute values; null when no mapped field holds one. */
function enterpriseOf(
  fields: readonly MappedField[],
  values: UserAttributes,
  baseUrl: string,
): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const m of fields) {
    const value = values[m.key];
    if (value === undefined || value === null) continue;
    out[m.field] = m.field === 'manager' ? { value: String(value), $ref: `${baseUrl}/Users/${value}` } : String(value);
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The extension's fields as a SCIM client reads and writes them (the manager by its id). */
export function enterpriseFieldsOf(extension: Record<string, unknown> | null): Record<string, unknown> {
  if (!extension) return {};
  // Attribute names are case-insensitive (RFC 7643 §2.1): each field under its schema spelling.
  const spelled = Object.fromEntries(
    Object.entries(extension).flatMap(([k, v]) => {
      const field = SCIM_ENTERPRISE_FIELDS.find((f) => f.toLowerCase() === k.toLowerCase());
      return field ? [[field, v]] : [];
    }),
  );
  const { manager, ...rest } = spelled;
  const id = typeof manager === 'object' && manager !== null ? (manager as { value?: unknown }).value : manager;
  return { ...rest, ...(id !== undefined && id !== null && id !== '' ? { manager: { value: String(id) } } : {}) };
}

const managerIdOf = (v: unknown) =>
  typeof v === 'object' && v !== null ? (v as { value?: unknown }).value : (v as unknown);

/**
 * A manager named by the service's user id, or — as identity providers that do not know it send
 * — by the external id the provider gave that user. 400 invalidValue when neither names a user.
 */
async function managerId(db: Database, raw: unknown): Promise<number> {
  const text = String(raw);
  if (/^\d{1,10}$/.test(text)) return Number(text);
  const [found] = await db.sequelize.query<{ id: number | string }>(
    'SELECT id FROM users WHERE external_id = :text AND deleted_at IS NULL',
    { type: QueryTypes.SELECT, replacements: { text } },
  );
  if (!found) throw invalidValue(`manager: no user has the id or externalId "${text}".`);
  return Number(found.id);
}

/**
 * The attribute writes that take a user's mapped fields from `before` to `after`: a changed
 * field sets its attribute, a field gone clears it (null). Unmapped fields are ignored.
 */
export async function attributeWrites(
  db: Database,
  fields: readonly MappedField[],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<UserAttributesInput> {
  const writes: UserAttributesInput = {};
  for (const m of fields) {
    const [was, now] = [before[m.field], after[m.field]];
    const same =
      m.field === 'manager' ? String(managerIdOf(was) ?? '') === String(managerIdOf(now) ?? '') : was === now;
    if (same) continue;
    if (now === undefined || now === null || now === '') writes[m.key] = null;
    else if (m.field === 'manager') writes[m.key] = await managerId(db, managerIdOf(now));
    else if (typeof now === 'string' || typeof now === 'number') writes[m.key] = String(now);
    else throw invalidValue(`${SCIM_SCHEMAS.enterpriseUser}:${m.field} takes a string.`);
  }
  return writes;
}
