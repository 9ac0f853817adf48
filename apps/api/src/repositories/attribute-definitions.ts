import {
  type AttributeField,
  type AttributeRules,
  type AttributeSensitivity,
  type AttributeType,
  AttributeValidatorsSchema,
} from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Actor } from '../auth/actor.js';
import type { Database } from '../db/database.js';
import { visibleDefinitions } from '../domain/attributes.visibility.js';

// The declared attributes as read, below the modules: the attributes module writes them, and
// what answers about a job (jobs/job-target.ts) names the attributes its selection filters on.

/** A row of `attributes` as the database answers it. */
export interface AttributeRecord {
  id: number | string;
  key: string;
  label: string;
  type: string;
  enum_values: string | null;
  required: unknown;
  is_unique: unknown;
  validators: string;
  sensitivity: string;
  description: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  changing_until: Date | string | null;
  enum_keys_ready: unknown;
}

/** A declared attribute, read. */
export interface AttributeDefinition extends AttributeRules {
  id: number;
  key: string;
  unique: boolean;
  sensitivity: AttributeSensitivity;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** A schema change is walking its values now: writes of them are refused (attributes.change-lease.ts). */
  changing: boolean;
  /**
   * An enumeration whose list keys per role are complete (migration 0036): a role-filtered list
   * may count its values there. False for every other type, and while a retype builds them.
   */
  roleKeyed: boolean;
}

const bool = (v: unknown) => v === true || Number(v) === 1;
const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

export function toDefinition(r: AttributeRecord): AttributeDefinition {
  return {
    id: Number(r.id),
    key: r.key,
    label: r.label,
    type: r.type as AttributeType,
    values: r.enum_values === null ? null : (JSON.parse(r.enum_values) as string[]),
    required: bool(r.required),
    unique: bool(r.is_unique),
    validators: AttributeValidatorsSchema.parse(JSON.parse(r.validators)),
    sensitivity: r.sensitivity as AttributeSensitivity,
    description: r.description,
    createdAt: date(r.created_at),
    changing: r.changing_until !== null && date(r.changing_until).getTime() > Date.now(),
    updatedAt: date(r.updated_at),
    roleKeyed: r.type === 'enum' && bool(r.enum_keys_ready),
  };
}

/** Every declared attribute, by label. */
export async function listDefinitions(db: Database, tx?: Transaction): Promise<AttributeDefinition[]> {
  const rows = await db.sequelize.query<AttributeRecord>('SELECT * FROM attributes ORDER BY label, id', {
    type: QueryTypes.SELECT,
    ...(tx ? { transaction: tx } : {}),
  });
  return rows.map(toDefinition);
}

/** A definition as forms, list columns and filters get it: what is declared. */
export function toAttributeField(d: AttributeDefinition): AttributeField {
  return {
    key: d.key,
    label: d.label,
    type: d.type,
    values: d.values ? [...d.values] : null,
    required: d.required,
    unique: d.unique,
    validators: d.validators,
    sensitivity: d.sensitivity,
    description: d.description,
  };
}

/** The definitions `actor` may see, as read now. */
export async function visibleDefinitionsOf(
  db: Database,
  actor: Pick<Actor, 'permissions'>,
  tx?: Transaction,
): Promise<AttributeDefinition[]> {
  return visibleDefinitions(actor, await listDefinitions(db, tx));
}
