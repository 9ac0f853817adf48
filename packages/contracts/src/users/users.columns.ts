import type { ColumnDefinition } from '../columns';

/**
 * The one column set of a user row (SPEC §6), in display order. The table, the column-visibility
 * menu and every export format read it; an export's `columns[]` picks and orders from it.
 */
export const USER_COLUMNS = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'name', label: 'Name', type: 'string' },
  { key: 'email', label: 'E-mail', type: 'string' },
  { key: 'roles_count', label: 'Role count', type: 'number' },
  // The role names, sorted: "manager, viewer" in a CSV or XLSX cell, an array in JSON. Headed
  // "Roles", so an exported file imports back as it is (the import reads a "Roles" column as
  // role names, split at commas); the count is "Role count" (docs/decisions.md).
  { key: 'roles', label: 'Roles', type: 'list' },
  { key: 'is_active', label: 'Active', type: 'boolean' },
  { key: 'created_at', label: 'Created', type: 'datetime' },
] as const satisfies readonly ColumnDefinition[];

export type UserColumnKey = (typeof USER_COLUMNS)[number]['key'];

export const USER_COLUMN_KEYS = USER_COLUMNS.map((column) => column.key) as [UserColumnKey, ...UserColumnKey[]];
