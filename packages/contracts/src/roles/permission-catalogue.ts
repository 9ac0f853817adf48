import { z } from 'zod';
import { IdSchema, NamedRefSchema } from '../common';
import { type Permission, PermissionSchema } from '../permissions';

/** What a permission acts on: the first half of its name. */
export const PERMISSION_RESOURCES = [
  'users',
  'roles',
  'audit',
  'tokens',
  'webhooks',
  'jobs',
  'auth',
  'attributes',
] as const;
export type PermissionResource = (typeof PERMISSION_RESOURCES)[number];

/** What it allows on that resource: the second half of its name. */
export const PERMISSION_ACTIONS = [
  'view',
  'create',
  'update',
  'delete',
  'restore',
  'forceDelete',
  'export',
  'setActive',
  'manage',
  'sensitive.view',
] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

/**
 * One permission's entry. Its resource and action are spelled out as data (the role editor's
 * resource × action matrix reads them) and typed from the name, so `users.view` can only be
 * `{resource: 'users', action: 'view'}`: a name whose halves are not a known resource and action
 * is a type error here, not a blank cell in the matrix.
 */
export type PermissionEntry<P extends Permission = Permission> = P extends `${infer R}.${infer A}`
  ? R extends PermissionResource
    ? A extends PermissionAction
      ? { resource: R; action: A; description: string }
      : never
    : never
  : never;

/**
 * Every permission with a sentence a person understands. `GET /permissions` serves it and the
 * SPA shows it beside its own label; a permission added to PERMISSIONS without an entry here
 * fails to compile.
 */
export const PERMISSION_CATALOGUE: { readonly [P in Permission]: PermissionEntry<P> } = {
  'users.view': { resource: 'users', action: 'view', description: 'Browse the user list and open user details.' },
  'users.create': { resource: 'users', action: 'create', description: 'Add new user accounts.' },
  'users.update': {
    resource: 'users',
    action: 'update',
    description: 'Change names, e-mail addresses, passwords and roles.',
  },
  'users.delete': { resource: 'users', action: 'delete', description: 'Move inactive users to the trash.' },
  'users.restore': { resource: 'users', action: 'restore', description: 'Bring deleted users back from the trash.' },
  'users.forceDelete': {
    resource: 'users',
    action: 'forceDelete',
    description: 'Remove users from the trash for good.',
  },
  'users.export': { resource: 'users', action: 'export', description: 'Download the user list as CSV, Excel or JSON.' },
  'users.setActive': { resource: 'users', action: 'setActive', description: 'Allow or block a user’s sign-in.' },
  'roles.view': { resource: 'roles', action: 'view', description: 'See roles and the permissions they grant.' },
  'roles.create': {
    resource: 'roles',
    action: 'create',
    description: 'Add new roles, granting only permissions you hold yourself.',
  },
  'roles.update': {
    resource: 'roles',
    action: 'update',
    description: 'Rename roles and change what they grant, within the permissions you hold.',
  },
  'roles.delete': {
    resource: 'roles',
    action: 'delete',
    description: 'Remove roles you outrank, taking them from their members.',
  },
  'audit.view': { resource: 'audit', action: 'view', description: 'See who changed what, when, and from where.' },
  'tokens.manage': {
    resource: 'tokens',
    action: 'manage',
    description: 'See, create and revoke API tokens for accounts you outrank.',
  },
  'webhooks.manage': {
    resource: 'webhooks',
    action: 'manage',
    description:
      'Add endpoints that are sent every change to users (names, e-mail addresses, status), and read what was sent.',
  },
  'jobs.view': {
    resource: 'jobs',
    action: 'view',
    description: 'See everyone’s background jobs (bulk changes and imports), not only your own.',
  },
  'auth.manage': {
    resource: 'auth',
    action: 'manage',
    description: 'Set up single sign-on: the identity providers people sign in with, and the accounts they may create.',
  },
  'attributes.manage': {
    resource: 'attributes',
    action: 'manage',
    description: 'Declare, change and remove the custom attributes users carry.',
  },
  'attributes.sensitive.view': {
    resource: 'attributes',
    action: 'sensitive.view',
    description: 'See and export the values of attributes marked sensitive.',
  },
};

/**
 * `GET /permissions`: one row per permission, in the contract's order, with the roles granting it
 * and whether the caller may give it to a role or take it away (decisions as data: the role
 * editor disables what the writes would refuse, with their reason).
 */
export const PermissionRowSchema = z.object({
  name: PermissionSchema,
  resource: z.enum(PERMISSION_RESOURCES),
  action: z.enum(PERMISSION_ACTIONS),
  description: z.string(),
  roles: z.array(NamedRefSchema).describe('The roles granting this permission, by name.'),
  grantable: z
    .boolean()
    .describe('Whether the caller may grant this permission or remove it: only one it holds itself.'),
  reason: z.string().optional().describe('Why the caller may not grant or remove it, when it may not.'),
});
export type PermissionRow = z.infer<typeof PermissionRowSchema>;

export const PermissionsListResultSchema = z.object({
  rows: z.array(PermissionRowSchema),
  meta: z.object({ total: z.number().int().nonnegative() }),
});
export type PermissionsListResult = z.infer<typeof PermissionsListResultSchema>;

/** Why a user holds a permission: through one of their roles, or granted to them directly. */
export const PermissionSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('role'), id: IdSchema, name: z.string() }),
  z.object({ kind: z.literal('direct') }),
]);
export type PermissionSource = z.infer<typeof PermissionSourceSchema>;

/**
 * `GET /users/{id}/access`: each permission the user holds, in the contract's order, with every
 * source of it (its roles by name, then `direct`); a permission held twice lists both.
 */
export const UserAccessResultSchema = z.object({
  item: z.object({
    id: IdSchema,
    permissions: z.array(z.object({ name: PermissionSchema, sources: z.array(PermissionSourceSchema).min(1) })),
  }),
});
export type UserAccessResult = z.infer<typeof UserAccessResultSchema>;
