import { usersListQuery } from '@app/contracts';
import { defineResourceList } from './define-resource-list';

/**
 * Links into a resource's list filtered one way, written in that list's own URL words (the codec
 * its page reads them with, from the same contract). Features link to each other's lists through
 * these, never through another feature's list internals.
 */
const usersListCodec = defineResourceList(usersListQuery).codec;

/** The users list showing the holders of a role: `/users?filters[role_id][]=3`. */
export const roleMembersHref = (roleId: number): string =>
  `/users?${usersListCodec.toSearch({ ...usersListCodec.defaults, filters: { role_id: [roleId] } })}`;
