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

  it('describes a role item with optional permissions and count', () => {
    const item = {
      id: 1,
      name: 'admin',
      guard_name: 'web',
      permissions: [{ id: 3, name: 'users.view' }],
      permissions_count: 1,
    };
    expect(RoleItemSchema.parse(item)).toEqual(item);
  });
});
