import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/auth/actor.js';
import { type EditFacts, planCreate, planEdit } from '../../src/domain/users.edit-plan.js';
import type { UsersConfig } from '../../src/users-config.js';

/**
 * The plan of a write to one account, with no database: facts and input in, the changes or the
 * first refusal out, in the order the API tells them (ceiling, version, e-mail, grants, status,
 * roles, rules).
 */
const RULES: UsersConfig = {
  activation: { blockSelfDeactivate: true, blockDeactivateIfLastAdmin: true, adminRoleName: 'admin' },
  deletion: { requireInactive: true, blockIfLastAdmin: true },
  list: { perPageDefault: 10, perPageMax: 100 },
};
const manager: Actor = {
  id: 1,
  name: 'Manager',
  email: 'm@x.io',
  permissions: new Set(['users.view', 'users.update', 'users.setActive']),
};
const facts = (over: Partial<EditFacts> = {}): EditFacts => ({
  target: { id: 2, name: 'Ann', is_active: true, deleted: false, permissions: new Set() },
  version: 'v1',
  emailTaken: false,
  grantsBefore: [],
  rolesBefore: [10],
  roles: null,
  adminRoleId: 1,
  admins: new Set(),
  ...over,
});
const refusalOf = (result: ReturnType<typeof planEdit>) => ('refusal' in result ? result.refusal.code : null);

describe('planning an edit', () => {
  it('tells the refusals in the API’s order: the ceiling first, then the version, then the e-mail', () => {
    const outranking = facts({
      target: { id: 2, name: 'Ann', is_active: true, deleted: false, permissions: new Set(['users.delete']) },
      version: 'stale',
      emailTaken: true,
    });
    expect(refusalOf(planEdit(manager, { version: 'v1' }, outranking, RULES))).toBe('OUTRANKED');
    expect(refusalOf(planEdit(manager, { version: 'v1' }, facts({ version: 'v2', emailTaken: true }), RULES))).toBe(
      'VERSION_CONFLICT',
    );
    const taken = planEdit(manager, { version: 'v1' }, facts({ emailTaken: true }), RULES);
    expect(taken).toMatchObject({ refusal: { code: 'VALIDATION_FAILED', errors: { email: [expect.any(String)] } } });
  });

  it('refuses grants and roles beyond the caller, naming the permission, and an unknown role at its index', () => {
    const grant = planEdit(manager, { version: 'v1', permissions: ['users.delete'] }, facts(), RULES);
    expect(grant).toMatchObject({ refusal: { code: 'FORBIDDEN', permission: 'users.delete' } });
    const unknown = planEdit(
      manager,
      { version: 'v1', roles_ids: [10, 99] },
      facts({ roles: { unknown: [99], grants: [] } }),
      RULES,
    );
    expect(unknown).toMatchObject({
      refusal: { code: 'VALIDATION_FAILED', errors: { 'roles_ids.1': [expect.any(String)] } },
    });
    const beyond = planEdit(
      manager,
      { version: 'v1', roles_ids: [10, 11] },
      facts({ roles: { unknown: [], grants: [{ id: 11, name: 'auditor', permissions: ['audit.view'] }] } }),
      RULES,
    );
    expect(beyond).toMatchObject({ refusal: { code: 'FORBIDDEN', permission: 'audit.view' } });
  });

  it('asks users.setActive only when the status changes, and the rules over the change', () => {
    const editor: Actor = { ...manager, permissions: new Set(['users.view', 'users.update']) };
    expect(planEdit(editor, { version: 'v1', is_active: true }, facts(), RULES)).toEqual({
      plan: { statusChanges: false, roles: { added: [], removed: [] }, grants: null },
    });
    expect(planEdit(editor, { version: 'v1', is_active: false }, facts(), RULES)).toMatchObject({
      refusal: { code: 'FORBIDDEN', permission: 'users.setActive' },
    });
    const self = facts({ target: { id: 1, name: 'Me', is_active: true, deleted: false, permissions: new Set() } });
    expect(refusalOf(planEdit(manager, { version: 'v1', is_active: false }, self, RULES))).toBe('SELF_DEACTIVATION');
  });

  it('plans the roles added and removed and the grants before and after', () => {
    const admin: Actor = { ...manager, permissions: new Set(['users.view', 'users.update', 'users.export']) };
    const planned = planEdit(
      admin,
      { version: 'v1', roles_ids: [12], permissions: ['users.export'] },
      facts({ roles: { unknown: [], grants: [] } }),
      RULES,
    );
    expect(planned).toEqual({
      plan: {
        statusChanges: false,
        roles: { added: [12], removed: [10] },
        grants: { before: [], added: ['users.export'], removed: [] },
      },
    });
  });
});

describe('planning a creation', () => {
  it('refuses a taken e-mail first, then roles, then grants', () => {
    const roles = { unknown: [], grants: [{ id: 11, name: 'auditor', permissions: ['audit.view'] }] };
    const input = { roles_ids: [11], permissions: ['users.delete'] };
    expect(planCreate(manager, input, { emailTaken: true, roles })).toMatchObject({
      refusal: { code: 'VALIDATION_FAILED' },
    });
    expect(planCreate(manager, input, { emailTaken: false, roles })).toMatchObject({
      refusal: { code: 'FORBIDDEN', permission: 'audit.view' },
    });
    expect(
      planCreate(
        manager,
        { roles_ids: [], permissions: ['users.delete'] },
        { emailTaken: false, roles: { unknown: [], grants: [] } },
      ),
    ).toMatchObject({ refusal: { code: 'FORBIDDEN', permission: 'users.delete' } });
  });
});
