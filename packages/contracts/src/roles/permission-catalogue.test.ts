import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../permissions';
import {
  PERMISSION_CATALOGUE,
  PermissionRowSchema,
  PermissionSourceSchema,
  UserAccessResultSchema,
} from './permission-catalogue';

describe('the permission catalogue', () => {
  it('has one entry per permission, in the contract’s order', () => {
    expect(Object.keys(PERMISSION_CATALOGUE)).toEqual([...PERMISSIONS]);
  });

  it('names each permission by its resource and action', () => {
    for (const name of PERMISSIONS) {
      const { resource, action } = PERMISSION_CATALOGUE[name];
      expect(`${resource}.${action}`).toBe(name);
    }
  });

  it('describes each permission in one sentence', () => {
    for (const name of PERMISSIONS) {
      expect(PERMISSION_CATALOGUE[name].description, name).toMatch(/^[A-Z][^\n]*\.$/);
    }
  });
});

describe('a catalogue row', () => {
  const row = { name: 'users.delete', resource: 'users', action: 'delete', description: 'Delete.', roles: [] };

  it('says whether the caller may grant the permission, and why not', () => {
    expect(PermissionRowSchema.parse({ ...row, grantable: true })).toMatchObject({ grantable: true });
    const locked = {
      ...row,
      grantable: false,
      reason: 'You can grant or take away only permissions you hold yourself; you do not hold users.delete.',
    };
    expect(PermissionRowSchema.parse(locked)).toEqual(locked);
  });

  it('refuses a row that does not say whether it is grantable', () => {
    expect(PermissionRowSchema.safeParse(row).success).toBe(false);
  });
});

describe('the access answer', () => {
  it('accepts a role source and a direct one', () => {
    expect(PermissionSourceSchema.parse({ kind: 'role', id: 3, name: 'manager' })).toEqual({
      kind: 'role',
      id: 3,
      name: 'manager',
    });
    expect(PermissionSourceSchema.parse({ kind: 'direct' })).toEqual({ kind: 'direct' });
  });

  it('refuses a held permission without a source', () => {
    const result = UserAccessResultSchema.safeParse({
      item: { id: 1, permissions: [{ name: 'users.view', sources: [] }] },
    });
    expect(result.success).toBe(false);
  });
});
