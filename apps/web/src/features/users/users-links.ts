import { usersList } from './list/users-list-state';

/**
 * The users list showing the holders of a role, in the users list's own URL words
 * (`/users?filters[role_id][]=3`): other features link to it through this, not the list's internals.
 */
export const roleMembersHref = (roleId: number): string =>
  `/users?${usersList.codec.toSearch({ ...usersList.codec.defaults, filters: { role_id: [roleId] } })}`;
