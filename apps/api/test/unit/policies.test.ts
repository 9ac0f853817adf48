import { PERMISSIONS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { mayAssignRole, rolesBeyondActor } from '../../src/domain/escalation.js';
import { canSeeTrash, usersPolicy } from '../../src/domain/users.policy.js';
import type { Actor } from '../../src/auth/actor.js';

const actor = (...permissions: string[]): Actor => ({
  id: 1,
  name: 'A',
  email: 'a@x.io',
  permissions: new Set(permissions),
});
const live = { id: 2, deleted_at: null };
const trashed = { id: 3, deleted_at: new Date() };

describe('the users record policy', () => {
  it('uses the route permission names', () => {
    expect(usersPolicy.view(actor('users.view'), live)).toBe(true);
    expect(usersPolicy.view(actor(), live)).toBe(false);
    expect(usersPolicy.update(actor('users.update'), live)).toBe(true);
    expect(usersPolicy.setActive(actor('users.update'), live)).toBe(false);
    expect(usersPolicy.delete(actor('users.delete'), live)).toBe(true);
    expect(usersPolicy.export(actor('users.export'))).toBe(true);
  });

  it('shows a trashed record only to those who can restore or purge it', () => {
    expect(usersPolicy.view(actor('users.view'), trashed)).toBe(false);
    expect(usersPolicy.view(actor('users.view', 'users.restore'), trashed)).toBe(true);
    expect(usersPolicy.view(actor('users.view', 'users.forceDelete'), trashed)).toBe(true);
    expect(canSeeTrash(actor('users.delete'))).toBe(false);
  });

  it('allows restore and force delete only of trashed records, and edits only of live ones', () => {
    const all = actor(...PERMISSIONS);
    expect(usersPolicy.restore(all, live)).toBe(false);
    expect(usersPolicy.restore(all, trashed)).toBe(true);
    expect(usersPolicy.forceDelete(all, live)).toBe(false);
    expect(usersPolicy.forceDelete(all, trashed)).toBe(true);
    expect(usersPolicy.update(all, trashed)).toBe(false);
    expect(usersPolicy.delete(all, trashed)).toBe(false);
  });
});

describe('anti-escalation', () => {
  const admin = { id: 1, name: 'admin', permissions: [...PERMISSIONS] };
  const viewer = { id: 3, name: 'viewer', permissions: ['users.view', 'roles.view'] };
  const manager = actor('users.view', 'users.update', 'users.setActive', 'users.export', 'roles.view');

  it('lets an actor grant a role whose permissions it holds', () => {
    expect(mayAssignRole(manager, viewer)).toBe(true);
  });

  it('refuses a role with a permission the actor lacks, and names what is missing', () => {
    expect(mayAssignRole(manager, admin)).toBe(false);
    expect(rolesBeyondActor(manager, [viewer, admin])).toEqual([
      {
        ...admin,
        missing: [
          'users.create',
          'users.delete',
          'users.restore',
          'users.forceDelete',
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
        ],
      },
    ]);
  });

  it('lets a full administrator assign anything', () => {
    expect(rolesBeyondActor(actor(...PERMISSIONS), [admin, viewer])).toEqual([]);
  });
});
