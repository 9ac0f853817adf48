import { PERMISSIONS, type Permission, type PermissionResource } from '@app/contracts';

/** Each permission's short label; a permission added to the contract without one fails to compile. */
const LABELS: Record<Permission, string> = {
  'users.view': 'View users',
  'users.create': 'Create users',
  'users.update': 'Edit users',
  'users.delete': 'Delete users',
  'users.restore': 'Restore users',
  'users.forceDelete': 'Delete users permanently',
  'users.export': 'Export users',
  'users.setActive': 'Activate and deactivate users',
  'roles.view': 'View roles',
  'roles.create': 'Create roles',
  'roles.update': 'Edit roles',
  'roles.delete': 'Delete roles',
  'audit.view': 'View the audit log',
  'tokens.manage': 'Manage other users’ API tokens',
  'webhooks.manage': 'Manage webhooks',
  'jobs.view': 'View everyone’s jobs',
  'auth.manage': 'Manage single sign-on providers',
  'attributes.manage': 'Manage custom attributes',
  'attributes.sensitive.view': 'View sensitive attribute values',
};

const GROUPS: Record<PermissionResource | 'other', string> = {
  users: 'Users',
  roles: 'Roles',
  audit: 'Audit log',
  tokens: 'API tokens',
  webhooks: 'Webhooks',
  jobs: 'Background jobs',
  auth: 'Sign-in',
  attributes: 'Custom attributes',
  other: 'Other',
};

/**
 * Permissions in words: this catalogue's label for each. Looked up by any name, since a role may
 * carry one this console does not know. The one-line descriptions live in the contracts
 * (`permissionDescription`), loaded with the pages that show them, not with every page.
 */
export const permissionMessages = {
  groups: GROUPS as Record<string, string>,
  names: Object.fromEntries(PERMISSIONS.map((name) => [name, { label: LABELS[name] }])) as Record<
    string,
    { label: string } | undefined
  >,
};
