import type { UserEditResult, UserShowResult } from '@app/contracts';

/** A `users.show` answer; override what the test is about. */
export function userShow(item: Partial<UserShowResult['item']> = {}): UserShowResult {
  return {
    item: {
      id: 42,
      name: 'Ann Lee',
      email: 'ann@example.com',
      is_active: true,
      created_at: '2024-03-01T09:30:00.000Z',
      updated_at: '2024-05-02T14:00:00.000Z',
      deleted_at: null,
      roles: [{ id: 2, name: 'manager' }],
      is_admin: false,
      permission_names: ['roles.view', 'users.export', 'users.setActive', 'users.update', 'users.view'],
      ...item,
    },
    meta: { loaded_relations: ['roles'], loaded_counts: [], loaded_appends: ['permission_names', 'is_admin'] },
  };
}

export const ROLE_OPTIONS = [
  { id: 1, name: 'admin', assignable: true },
  { id: 2, name: 'manager', assignable: true },
  { id: 3, name: 'viewer', assignable: true },
];

/** A `users.edit` answer. */
export function userEdit(
  item: Partial<UserEditResult['item']> = {},
  extra: { roles?: UserEditResult['options']['roles']; can?: Partial<UserEditResult['can']> } = {},
): UserEditResult {
  return {
    item: {
      id: 42,
      name: 'Ann Lee',
      email: 'ann@example.com',
      is_active: true,
      created_at: '2024-03-01T09:30:00.000Z',
      updated_at: '2024-05-02T14:00:00.000Z',
      deleted_at: null,
      roles: [{ id: 2, name: 'manager' }],
      roles_ids: [2],
      version: 'v1',
      ...item,
    },
    options: { roles: extra.roles ?? ROLE_OPTIONS },
    can: { update: true, setActive: true, delete: true, restore: false, forceDelete: false, ...extra.can },
  };
}
