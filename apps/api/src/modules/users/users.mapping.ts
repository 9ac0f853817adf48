import type { UsersFilterName, UsersSort } from '@app/contracts';
import { literal, Op, type WhereOptions } from 'sequelize';
import { byKind, type ResourceMapping, softDeleteView, toDate } from '../../query/list-query-engine.js';

/** How the users list query of the contracts maps onto the `users` table. */
export const usersMapping: ResourceMapping<UsersSort, UsersFilterName> = {
  alias: 'User',
  search: ['name', 'email'],
  sorts: { id: 'id', name: 'name', email: 'email', is_active: 'is_active', created_at: 'created_at' },
  filters: {
    name: byKind('name'),
    email: byKind('email'),
    is_active: byKind('is_active'),
    created_between: byKind('created_at', toDate),
    trashed: softDeleteView,
    // Judged against the declared schema first, then written by usersWhere from that judgement
    // (users.attributes-query.ts): the mapping alone does not know the attributes.
    attributes: () => null,
    // The latest invitation's state, as the user page reads it (domain/users.invite.ts): one
    // range of users_deleted_invitation for pending and expired.
    invitation: (value) => {
      if (value.kind !== 'in') return null;
      const now = new Date();
      const open = { invitation_accepted_at: null };
      const states: Record<string, WhereOptions> = {
        pending: { ...open, invitation_expires_at: { [Op.gt]: now } },
        expired: { ...open, invitation_expires_at: { [Op.lte]: now } },
        accepted: { invitation_accepted_at: { [Op.ne]: null } },
      };
      return { [Op.or]: value.values.map((state) => states[String(state)] ?? { id: null }) };
    },
    // Users having any of the roles: EXISTS on user_roles(role_id, user_id) stops at the first match.
    role_id: (value) => {
      if (value.kind !== 'in') return null;
      const ids = value.values.map((v) => Number(v)).filter((v) => Number.isSafeInteger(v) && v > 0);
      return literal(
        `EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = \`User\`.\`id\` AND ur.role_id IN (${ids.join(', ') || 'NULL'}))`,
      );
    },
  },
  softDelete: { column: 'deleted_at', filter: 'trashed' },
};
