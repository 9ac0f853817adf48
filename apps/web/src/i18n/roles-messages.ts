import { pageMessages } from './messages';
import { formatCount, listStrings } from './list-strings';

const kit = listStrings({
  one: 'role',
  many: 'roles',
  label: 'Roles',
  search: { label: 'Search roles by name', placeholder: 'Role name…' },
  noneTitle: 'No roles yet',
  noneBody: 'Roles bundle permissions; give one to users to let them act in this console.',
  noMatchBody: 'Try another name, or clear the filters to see every role.',
});

const users = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

/** The roles list's strings; a role's own page keeps its words under `role`. */
export const rolesMessages = {
  ...kit,
  title: 'Roles',
  subtitle: 'What each role grants, and how many users hold it.',
  columns: {
    id: 'ID',
    name: 'Name',
    description: 'Description',
    permissions_count: 'Permissions',
    users_count: 'Users',
    created_at: 'Created',
  },
  noDescription: '—',
  count: formatCount,
  /** On a role's page: the users list filtered by the role. */
  membersLink: 'Users with this role',
  /** The member count's link name: the number it shows first, then whose they are. */
  members: (count: number, role: string) => `${users(count)} with the role ${role}`,
  filters: {
    ...kit.filters,
    permission: 'Grants any of',
    permissionHint: 'Roles granting at least one of the chosen permissions.',
    chip: {
      ...kit.filters.chip,
      permission: 'Grants',
      users: 'Users',
    },
    /** A users-count range set by a link (the form has no number range). */
    usersRange: (from: number | undefined, to: number | undefined) =>
      from !== undefined && to !== undefined
        ? `${formatCount(from)} – ${formatCount(to)}`
        : from !== undefined
          ? `at least ${formatCount(from)}`
          : `at most ${formatCount(to ?? 0)}`,
  },
};

/** A role's own page (and a permission's granted/not-granted marks wherever they are shown). */
export const roleMessages = {
  loading: 'Loading role…',
  notFoundTitle: 'Role not found',
  notFoundDescription: 'This role does not exist or has been removed.',
  errorTitle: 'This role couldn’t be loaded',
  permissionsTitle: 'Permissions',
  permissionCount: (count: number) => (count === 1 ? '1 permission' : `${count} permissions`),
  permissionsOf: (granted: number, known: number) => `Grants ${granted} of ${known} permissions.`,
  granted: 'Granted',
  notGranted: 'Not granted',
  empty: 'This role grants no permissions.',
  requiresTwoFactor: 'Requires two-factor authentication',
};

/** The roles pages' words: `m.roles` (the list) and `m.role` (one role). */
export const useRolesMessages = pageMessages({ roles: rolesMessages, role: roleMessages });
export type RolesPageMessages = ReturnType<typeof useRolesMessages>;
