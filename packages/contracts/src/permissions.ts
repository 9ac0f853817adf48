import { z } from 'zod';

// The single list of permission names: the database seed, the route guards and the SPA's
// capability checks all read it, so a name cannot exist in one place only.
export const PERMISSIONS = [
  'users.view',
  'users.create',
  'users.update',
  'users.delete',
  'users.restore',
  'users.forceDelete',
  'users.export',
  'users.setActive',
  'roles.view',
  'roles.create',
  'roles.update',
  'roles.delete',
  'audit.view',
  'tokens.manage',
  'webhooks.manage',
  'jobs.view',
  'auth.manage',
  'attributes.manage',
  'attributes.sensitive.view',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const PermissionSchema = z.enum(PERMISSIONS, {
  error: `Permission must be one of: ${PERMISSIONS.join(', ')}.`,
});

export type SeededRoleName = 'admin' | 'manager' | 'viewer';

export const SEEDED_ROLES: Readonly<Record<SeededRoleName, readonly Permission[]>> = {
  admin: PERMISSIONS,
  manager: ['users.view', 'users.update', 'users.setActive', 'users.export', 'roles.view'],
  viewer: ['users.view', 'roles.view'],
};

/** What each seeded role is for, as its page and the roles list say it (an administrator may reword it). */
export const SEEDED_ROLE_DESCRIPTIONS: Readonly<Record<SeededRoleName, string>> = {
  admin: 'Every permission, including those added in later versions. This role cannot be renamed or deleted.',
  manager:
    'Looks after user accounts: sees and edits users, activates and deactivates them, exports the list; sees roles.',
  viewer: 'Reads only: sees users and roles, and changes nothing.',
};

export type CapabilityMap = Record<Permission, boolean>;

/**
 * Seeing deleted users (the trash views, a trashed record, the trashed count) is for those who
 * can do something with them. The API's record policy and the SPA both ask this.
 */
export function canSeeTrash(holds: (permission: Permission) => boolean): boolean {
  return holds('users.restore') || holds('users.forceDelete');
}

export function isPermission(name: string): name is Permission {
  return (PERMISSIONS as readonly string[]).includes(name);
}

/**
 * Every known permission mapped to whether it is held. Unknown names are ignored: a permission
 * created by hand in the database must not leak into the SPA as a capability it cannot act on.
 */
export function capabilityMap(held: Iterable<string>): CapabilityMap {
  const heldSet = new Set(held);
  const map = {} as CapabilityMap;
  for (const permission of PERMISSIONS) map[permission] = heldSet.has(permission);
  return map;
}
