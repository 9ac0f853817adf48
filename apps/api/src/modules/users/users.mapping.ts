import type { UsersFilterName, UsersSort } from '@app/contracts';
import { literal } from 'sequelize';
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
