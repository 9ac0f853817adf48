import { describe, expect, it } from 'vitest';
import { USER_COLUMNS } from './users.columns';
import { UserItemSchema, UserRowSchema } from './users.schemas';

describe('user column set', () => {
  it('lists id, name, email, roles_count, roles, is_active, created_at in that order', () => {
    expect(USER_COLUMNS.map((column) => column.key)).toEqual([
      'id',
      'name',
      'email',
      'roles_count',
      'roles',
      'is_active',
      'created_at',
    ]);
  });

  it('labels each column for people', () => {
    expect(USER_COLUMNS.map((column) => column.label)).toEqual([
      'ID',
      'Name',
      'E-mail',
      'Role count',
      'Roles',
      'Active',
      'Created',
    ]);
  });

  it('types each column for typed export cells', () => {
    expect(USER_COLUMNS.map((column) => column.type)).toEqual([
      'number',
      'string',
      'string',
      'number',
      'list',
      'boolean',
      'datetime',
    ]);
  });

  it('makes a row the column set plus deleted_at', () => {
    expect(Object.keys(UserRowSchema.shape)).toEqual([...USER_COLUMNS.map((column) => column.key), 'deleted_at']);
  });

  it('accepts a row with ISO timestamps', () => {
    const row = {
      id: 1,
      name: 'Ann',
      email: 'a@example.com',
      roles_count: 2,
      roles: ['admin', 'editor'],
      is_active: true,
      created_at: '2024-05-01T09:30:00.000Z',
      deleted_at: null,
    };
    expect(UserRowSchema.parse(row)).toEqual(row);
  });

  it('refuses a show item that carries a password hash', () => {
    const item = {
      id: 1,
      name: 'Ann',
      email: 'a@example.com',
      is_active: true,
      created_at: '2024-05-01T09:30:00.000Z',
      updated_at: '2024-05-01T09:30:00.000Z',
      deleted_at: null,
    };
    expect(Object.keys(UserItemSchema.parse({ ...item, password: 'hash' }))).not.toContain('password');
  });
});
