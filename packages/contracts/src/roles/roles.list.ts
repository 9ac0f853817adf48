import { z } from 'zod';
import type { ColumnDefinition } from '../columns';
import { exportShape, listResultSchema } from '../lists';
import { PERMISSIONS, PermissionSchema } from '../permissions';
import { defineListQuery, type ListQueryOf } from '../query/define-list-query';
import { integer, numeric } from '../query/fields';
import { oneOrMany, range } from '../query/filters';
import { RoleActionsSchema, RoleItemSchema } from './roles.query';

/**
 * GET /roles. `q` finds roles whose name holds the text (any case); `permission` keeps the roles
 * granting any of the permissions named; `users_count` keeps the roles held by at least `from`
 * and at most `to` users (outside the trash). Alphabetical unless sorted otherwise.
 */
export const rolesListQuery = defineListQuery({
  search: ['name'],
  filters: {
    permission: oneOrMany(PermissionSchema, { max: PERMISSIONS.length }),
    users_count: range(numeric(integer('A number of users must be a whole number of 0 or more.', { min: 0 }))),
  },
  sorts: ['name', 'users_count', 'created_at'],
  defaultOrder: ['name', 'asc'],
  perPage: { default: 25, max: 100, choices: [10, 25, 50, 100] },
});
export type RolesListQuery = ListQueryOf<typeof rolesListQuery>;
export type RolesSort = (typeof rolesListQuery.sorts)[number];
export type RolesFilterName = keyof typeof rolesListQuery.filters;

/** A list row: the role with its counts and what the caller may do to it. */
export const RoleListRowSchema = RoleItemSchema.omit({ permissions: true }).extend({
  permissions_count: z.number().int().nonnegative(),
  users_count: z.number().int().nonnegative(),
  actions: RoleActionsSchema,
});
export type RoleListRow = z.infer<typeof RoleListRowSchema>;

export const RolesListResultSchema = listResultSchema(RoleListRowSchema, {
  filters: z.record(z.string(), z.unknown()),
});
export type RolesListResult = z.infer<typeof RolesListResultSchema>;

/** The roles' export columns, in file order; `permissions` is the granted names, joined. */
export const ROLE_COLUMNS = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'name', label: 'Name', type: 'string' },
  { key: 'description', label: 'Description', type: 'string' },
  { key: 'permissions', label: 'Permissions', type: 'string' },
  { key: 'permissions_count', label: 'Permission count', type: 'number' },
  { key: 'users_count', label: 'Users', type: 'number' },
  { key: 'created_at', label: 'Created', type: 'datetime' },
] as const satisfies readonly ColumnDefinition[];
export type RoleColumnKey = (typeof ROLE_COLUMNS)[number]['key'];
export const ROLE_COLUMN_KEYS = ROLE_COLUMNS.map((column) => column.key) as [RoleColumnKey, ...RoleColumnKey[]];

/** One role as an export writes it. */
export interface RoleExportRow {
  id: number;
  name: string;
  description: string | null;
  /** The granted permissions' names, sorted, joined with ", ". */
  permissions: string;
  permissions_count: number;
  users_count: number;
  created_at: string;
}

/**
 * GET /roles/export: the list query (page and perPage ignored), `format` (csv when absent) and
 * `columns` picking and ordering (all when absent).
 */
export const RolesExportInputSchema = rolesListQuery.extend(exportShape(ROLE_COLUMN_KEYS));
export type RolesExportInput = z.output<typeof RolesExportInputSchema>;
