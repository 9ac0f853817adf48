import { PERMISSION_CATALOGUE, PERMISSIONS, type Permission, type PermissionRow, type RoleItem } from '@app/contracts';
import { ok } from '../../test/trpc-mock';

const allowed = { allowed: true };

/** A role as GET /roles/{id} answers with its permissions and member count. */
export const roleItem = (overrides: Partial<RoleItem> = {}): RoleItem => ({
  id: 7,
  name: 'support',
  description: 'Answers customers',
  guard_name: 'web',
  version: 'v1',
  require_two_factor: false,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
  permissions: [
    { id: 1, name: 'users.view' },
    { id: 4, name: 'users.delete' },
  ],
  permissions_count: 2,
  users_count: 3,
  actions: { update: allowed, delete: allowed },
  ...overrides,
});

export const roleShow = (overrides: Partial<RoleItem> = {}) =>
  ok({
    item: roleItem(overrides),
    meta: { loaded_relations: ['permissions'], loaded_counts: ['users_count'], loaded_appends: [] },
  });

/** GET /permissions for a caller holding `held` (every permission when 'all'). */
export const catalogueFor = (held: readonly Permission[] | 'all') => {
  const holds = (name: Permission) => held === 'all' || held.includes(name);
  const rows: PermissionRow[] = PERMISSIONS.map((name) => ({
    name,
    ...PERMISSION_CATALOGUE[name],
    roles: [],
    ...(holds(name)
      ? { grantable: true }
      : {
          grantable: false,
          reason: `You can grant or take away only permissions you hold yourself; you do not hold ${name}.`,
        }),
  }));
  return ok({ rows, meta: { total: rows.length } });
};

export const NO_IMPACT = {
  gains: [],
  losses: [],
  outranks: { count: 0, user_ids: [] },
  two_factor: { held: { count: 0, user_ids: [] }, released: { count: 0, user_ids: [] } },
  users: [],
  people: allowed,
  refusal: allowed,
};

export const person = (id: number, name: string) => ({ id, name, email: `${name.toLowerCase()}@example.com` });
