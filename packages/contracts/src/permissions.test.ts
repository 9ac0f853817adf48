import { describe, expect, it } from 'vitest';
import { capabilityMap, PERMISSIONS, PermissionSchema, SEEDED_ROLES } from './permissions';

describe('permissions', () => {
  it('lists the permission names of the contract, in order (audit.view added by the audit log, tokens.manage and webhooks.manage by integrations, jobs.view by background jobs, roles.create/update/delete by the role editor, auth.manage by single sign-on, attributes.manage and attributes.sensitive.view by custom attributes)', () => {
    expect(PERMISSIONS).toEqual([
      'users.view',
      'users.create',
      'users.update',
      'users.delete',
      'users.restore',
      'users.forceDelete',
      'users.export',
      'users.setActive',
      'roles.view',
      'roles.create',
      'roles.update',
      'roles.delete',
      'audit.view',
      'tokens.manage',
      'webhooks.manage',
      'jobs.view',
      'auth.manage',
      'attributes.manage',
      'attributes.sensitive.view',
    ]);
  });

  it('gives the admin role every permission', () => {
    expect([...SEEDED_ROLES.admin]).toEqual([...PERMISSIONS]);
  });

  it('gives the manager role view, update, setActive, export and roles.view', () => {
    expect([...SEEDED_ROLES.manager].sort()).toEqual(
      ['roles.view', 'users.export', 'users.setActive', 'users.update', 'users.view'].sort(),
    );
  });

  it('gives the viewer role users.view and roles.view only', () => {
    expect(SEEDED_ROLES.viewer).toEqual(['users.view', 'roles.view']);
  });

  it('refuses an unknown permission name with the list of known ones', () => {
    const result = PermissionSchema.safeParse('users.fly');
    expect(result.error?.issues[0]?.message).toContain('users.view, users.create');
  });
});

describe('capabilityMap', () => {
  it('maps every known permission to whether it is held', () => {
    const can = capabilityMap(['users.view', 'roles.view']);
    expect(Object.keys(can)).toEqual([...PERMISSIONS]);
    expect(can['users.view']).toBe(true);
    expect(can['roles.view']).toBe(true);
    expect(can['users.delete']).toBe(false);
  });

  it('ignores names that are not known permissions', () => {
    const can = capabilityMap(['users.view', 'reports.view']);
    expect(Object.keys(can)).not.toContain('reports.view');
  });

  it('accepts any iterable, such as a Set', () => {
    expect(capabilityMap(new Set(['users.export']))['users.export']).toBe(true);
  });

  it('grants nothing to an empty permission set', () => {
    expect(Object.values(capabilityMap([])).every((held) => held === false)).toBe(true);
  });
});
