import type { ColumnDefinition } from '../columns';

/**
 * The one column set of a user row (SPEC §6), in display order. The table, the column-visibility
 * menu and every export format read it; an export's `columns[]` picks and orders from it.
 */
export const USER_COLUMNS = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'name', label: 'Name', type: 'string' },
  { key: 'email', label: 'E-mail', type: 'string' },
  { key: 'roles_count', label: 'Roles', type: 'number' },
  { key: 'is_active', label: 'Active', type: 'boolean' },
  { key: 'created_at', label: 'Created', type: 'datetime' },
] as const satisfies readonly ColumnDefinition[];

export type UserColumnKey = (typeof USER_COLUMNS)[number]['key'];

export const USER_COLUMN_KEYS = USER_COLUMNS.map((column) => column.key) as [UserColumnKey, ...UserColumnKey[]];
