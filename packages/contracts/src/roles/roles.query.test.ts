import { describe, expect, it } from 'vitest';
import { accept, refuse } from '../test-support';
import { RoleItemSchema, roleShowQuery } from './roles.query';

describe('role show query', () => {
  it('accepts permissions as relation and count', () => {
    expect(accept(roleShowQuery.input, { with: ['permissions'], withCount: 'permissions' })).toEqual({
      with: ['permissions'],
      withCount: ['permissions'],
      append: [],
      withTrashed: false,
    });
  });

  it('refuses another relation with RELATION_NOT_ALLOWED', () => {
    expect(refuse(roleShowQuery.input, { with: ['users'] })).toEqual({
      code: 'RELATION_NOT_ALLOWED',
      errors: { 'with.0': ['Relation "users" is not allowed. Allowed: permissions.'] },
    });
  });

  it('refuses any append, since roles have none', () => {
    expect(refuse(roleShowQuery.input, { append: 'x' })).toEqual({
      code: 'APPEND_NOT_ALLOWED',
      errors: { 'append.0': ['Appended field "x" is not allowed. Allowed: none.'] },
    });
  });

  it('accepts users as a count', () => {
    expect(accept(roleShowQuery.input, { withCount: ['users', 'permissions'] }).withCount).toEqual([
      'users',
      'permissions',
    ]);
  });

  it('describes a role item with optional permissions, counts and actions', () => {
    const item = {
      id: 1,
      name: 'admin',
      description: null,
      guard_name: 'web',
      version: 'MToz',
      created_at: '2024-05-01T09:30:00.000Z',
      updated_at: '2024-05-02T09:30:00.000Z',
      permissions: [{ id: 3, name: 'users.view' }],
      permissions_count: 1,
      users_count: 12,
      require_two_factor: false,
      actions: { update: { allowed: true }, delete: { allowed: false, code: 'ROLE_PROTECTED', message: 'No.' } },
    };
    expect(RoleItemSchema.parse(item)).toEqual(item);
  });

  it('requires the version and the dates of a role', () => {
    expect(RoleItemSchema.safeParse({ id: 1, name: 'admin', description: null, guard_name: 'web' }).success).toBe(
      false,
    );
  });
});
