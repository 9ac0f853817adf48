import type { Permission } from '../permissions';

// The bulk operations and the permission each needs, without the request's schemas: the users
// list offers its actions by them on every page load, and must not load the bulk contract with it.

export const BULK_OPERATIONS = [
  'delete',
  'restore',
  'forceDelete',
  'setActive',
  'addRole',
  'removeRole',
  'invite',
  'setAttribute',
] as const;
export type BulkOperation = (typeof BULK_OPERATIONS)[number];

/** The operations that give or take one role (`role_id`). */
export const BULK_ROLE_OPERATIONS = ['addRole', 'removeRole'] as const satisfies readonly BulkOperation[];
export type BulkRoleOperation = (typeof BULK_ROLE_OPERATIONS)[number];
export const isBulkRoleOperation = (operation: BulkOperation): operation is BulkRoleOperation =>
  (BULK_ROLE_OPERATIONS as readonly string[]).includes(operation);

/** The permission each bulk operation needs (SPEC §3). */
export const BULK_PERMISSIONS: Readonly<Record<BulkOperation, Permission>> = {
  delete: 'users.delete',
  restore: 'users.restore',
  forceDelete: 'users.forceDelete',
  setActive: 'users.setActive',
  // As on the edit form, where roles are changed (and under its rules).
  addRole: 'users.update',
  removeRole: 'users.update',
  // As POST /users/{id}/invite: an invitation sets the password, as the edit form can.
  invite: 'users.update',
  // As the edit form, where a user's attribute values are changed.
  setAttribute: 'users.update',
};
