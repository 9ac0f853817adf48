import type { SourceRow } from './types.js';

import { attributePath, IMPORT_FIELDS, type ImportField, type ImportTarget, ownEntry } from '@app/contracts';

export { IMPORT_FIELDS, type ImportField, type ImportTarget };
/** Without an e-mail a row names no account; every other field has a default or may stay unset. */
export const REQUIRED_FIELDS: readonly ImportField[] = ['email'];

export interface ColumnMapping {
  index: number;
  header: string;
  field: ImportTarget | null;
}

export interface ColumnMatch {
  columns: ColumnMapping[];
  /** Headers mapped to nothing (and not ignored by the user): reported, not fatal. */
  unknown: string[];
  /** Headers that name a field an earlier column already took (only roles may repeat). */
  duplicates: string[];
  missing: ImportField[];
}

export type ColumnOverrides = Record<string, ImportTarget | 'ignore'>;

/** A custom attribute a column can fill: by its key or its label, as the caller may see it. */
export interface AttributeHeader {
  key: string;
  label: string;
}

/** Lower case, accents and spaces, `_`, `-`, `.` dropped: "E-Mail-Adresse" → "emailadresse". */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_.-]+/g, '');
}

const SYNONYMS: Readonly<Record<ImportField, readonly string[]>> = {
  // An export's "ID" column: the account's id here (another system's id is `external_id`).
  id: ['id', 'user id'],
  name: ['name', 'full name', 'nom', 'nom complet', 'nombre', 'display name'],
  email: ['email', 'e-mail', 'mail', 'email address', 'courriel', 'e-mail-adresse', 'adresse e-mail', 'correo'],
  roles: ['role', 'roles'],
  is_active: ['active', 'is active', 'status', 'enabled'],
  password: ['password'],
  password_hash: ['password hash', 'hash'],
  external_id: ['external id'],
};

const FIELD_OF_KEY = new Map<string, ImportField>(
  IMPORT_FIELDS.flatMap((field) => [field, ...SYNONYMS[field]].map((name) => [headerKey(name), field] as const)),
);

/** bcrypt as PHP, Ruby and Node write it, and argon2id: hashes `password_hash` accepts. */
const PASSWORD_HASH = /^(\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}|\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$\S+)$/;

export function looksLikePasswordHash(value: string): boolean {
  return PASSWORD_HASH.test(value);
}

/** A `password` column whose sample values are all hashes holds hashes (a Laravel `users` export). */
function holdsHashes(index: number, sample: readonly SourceRow[]): boolean {
  const values = sample.map((row) => row.values[index] ?? '').filter((value) => value !== '');
  return values.length > 0 && values.every(looksLikePasswordHash);
}

/**
 * The attribute columns by header key: an attribute's key, its label, and `attributes.<key>` (a
 * JSON export's). The user's own fields come first: an attribute labelled "Name" is not the name.
 */
function attributeKeys(attributes: readonly AttributeHeader[]): Map<string, ImportTarget> {
  const out = new Map<string, ImportTarget>();
  for (const a of attributes) {
    for (const name of [attributePath(a.key), a.key, a.label]) {
      const key = headerKey(name);
      if (!FIELD_OF_KEY.has(key) && !out.has(key)) out.set(key, attributePath(a.key));
    }
  }
  return out;
}

/**
 * Maps each header to a field: the user's override first (`ignore` drops a column), then the
 * known names and synonyms, then the custom attributes' keys and labels, all compared without
 * case, accents, spaces, `_` or `-`. Repeated roles columns all map to roles; any other field goes
 * to the first column naming it. With a `sample` of rows, a `password` column that holds only
 * bcrypt/argon2id hashes maps to `password_hash`.
 */
export function matchColumns(
  headers: readonly string[],
  overrides: ColumnOverrides = {},
  sample: readonly SourceRow[] = [],
  attributes: readonly AttributeHeader[] = [],
): ColumnMatch {
  const byAttribute = attributeKeys(attributes);
  const taken = new Set<ImportTarget>();
  const columns: ColumnMapping[] = [];
  const unknown: string[] = [];
  const duplicates: string[] = [];
  const overrideOf = (key: string) => ownEntry(overrides, key);
  const overridden = headers.map((header) => overrideOf(header) ?? overrideOf(header.trim()));
  // Fields the user placed explicitly are theirs even when an earlier column would match by name.
  for (const choice of overridden) if (choice && choice !== 'ignore') taken.add(choice);
  headers.forEach((header, index) => {
    const choice = overridden[index];
    if (choice === 'ignore') {
      columns.push({ index, header, field: null });
      return;
    }
    if (choice) {
      columns.push({ index, header, field: choice });
      return;
    }
    let field: ImportTarget | null = FIELD_OF_KEY.get(headerKey(header)) ?? byAttribute.get(headerKey(header)) ?? null;
    if (field === 'password' && !taken.has('password_hash') && holdsHashes(index, sample)) field = 'password_hash';
    if (field === null) unknown.push(header);
    else if (field !== 'roles' && taken.has(field)) {
      duplicates.push(header);
      field = null;
    }
    if (field) taken.add(field);
    columns.push({ index, header, field });
  });
  const missing = REQUIRED_FIELDS.filter((field) => !taken.has(field));
  return { columns, unknown, duplicates, missing };
}
