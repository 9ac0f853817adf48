import { isImportAttributeColumn } from '@app/contracts';
import type { ColumnMapping } from './columns.js';
import type { SourceRow } from './types.js';

export interface ImportRecord {
  /** The account's id as the cell says it (checked when staged: import-file.ts). */
  id: string | null;
  name: string | null;
  email: string | null;
  /** null when no roles column or every roles cell is empty: the caller's default roles apply. */
  roles: string[] | null;
  /** null when the cell is empty or absent: the caller's `activate` default applies. */
  is_active: boolean | null;
  isActiveRaw?: string;
  password: string | null;
  password_hash: string | null;
  external_id: string | null;
  /**
   * Custom attribute values by key, as the cells say them (typed by each definition later). An
   * empty cell is absent: it leaves the value as it is.
   */
  attributes: Record<string, string>;
}

export interface RecordError {
  code: string;
  message: string;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'active', 'enabled']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'inactive', 'disabled']);

/** true, false, null for an empty cell, or undefined for a value that says neither. */
export function parseActive(raw: string): boolean | null | undefined {
  const word = raw.trim().toLowerCase();
  if (word === '') return null;
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/**
 * Role names from a cell: split at `;`, `|`, `,` and line breaks whatever the file's delimiter
 * (a role name may hold spaces and any letters, but none of these: RoleNameSchema), trimmed,
 * empties dropped. "Help Desk; Sales – EMEA" is two names, each found whatever its case and
 * spacing (`rolesByName`).
 */
export function splitRoles(raw: string): string[] {
  return raw
    .split(/[;|,\r\n]/)
    .map((role) => role.trim())
    .filter((role) => role !== '');
}

function quoted(raw: string): string {
  return raw.length > 40 ? `"${raw.slice(0, 40)}…"` : `"${raw}"`;
}

/** One row as the fields of a user, or the row-level problem that keeps it from being one. */
export function recordOf(
  row: SourceRow,
  columns: readonly ColumnMapping[],
): { record: ImportRecord } | { error: RecordError } {
  if (row.problem) return { error: { code: row.problem.code, message: row.problem.message } };
  const record: ImportRecord = {
    id: null,
    name: null,
    email: null,
    roles: null,
    is_active: null,
    password: null,
    password_hash: null,
    external_id: null,
    attributes: {},
  };
  let roles: string[] | null = null;
  for (const { index, field } of columns) {
    if (!field) continue;
    const value = row.values[index] ?? '';
    if (isImportAttributeColumn(field)) {
      if (value.trim() !== '') record.attributes[field.slice('attributes.'.length)] = value;
    } else if (field === 'roles') {
      const names = splitRoles(value);
      if (names.length > 0) roles = [...(roles ?? []), ...names];
    } else if (field === 'is_active') {
      if (value === '') continue;
      const active = parseActive(value);
      if (active === undefined) {
        return {
          error: {
            code: 'BAD_ACTIVE',
            message: `${quoted(value)} is not an active value; use true or false, yes or no, 1 or 0, active or inactive.`,
          },
        };
      }
      record.is_active = active;
      record.isActiveRaw = value;
    } else if (value !== '') {
      record[field] = value;
    }
  }
  record.roles = roles;
  return { record };
}
