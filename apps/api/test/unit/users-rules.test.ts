import { describe, expect, it } from 'vitest';
import type { UsersConfig } from '../../src/users-config.js';
import { type Change, judge, type Target } from '../../src/domain/users.rules.js';
import type { Actor } from '../../src/auth/actor.js';

const ON: UsersConfig = {
  activation: { blockSelfDeactivate: true, blockDeactivateIfLastAdmin: true, adminRoleName: 'admin' },
  deletion: { requireInactive: true, blockIfLastAdmin: true },
  list: { perPageDefault: 10, perPageMax: 100 },
};
const me: Actor = { id: 1, name: 'Me', email: 'me@x.io', permissions: new Set() };
const user = (id: number, is_active = true, permissions: string[] = []): Target => ({
  id,
  name: `User ${id}`,
  is_active,
  deleted: false,
  permissions: new Set(permissions),
});
const off = (patch: (c: UsersConfig) => void) => {
  const c = structuredClone(ON);
  patch(c);
  return c;
};

describe('the users rules', () => {
  it('refuse any change to a user holding a permission the actor lacks, naming what it lacks', () => {
    const manager: Actor = { ...me, permissions: new Set(['users.view', 'users.update', 'users.setActive']) };
    const admin = user(2, true, ['users.view', 'users.delete', 'users.create']);
    const kinds: Change[] = [
      { kind: 'update', target: admin },
      { kind: 'setActive', target: admin, active: false },
      { kind: 'delete', target: user(2, false, ['users.delete']) },
      { kind: 'restore', target: admin },
      { kind: 'forceDelete', target: admin },
      { kind: 'removeAdminRole', target: admin },
    ];
    for (const change of kinds) {
      const refused = judge(manager, [change], new Set(), ON).get(2);
      expect(refused?.code, change.kind).toBe('OUTRANKED');
    }
    expect(judge(manager, [kinds[0] as Change], new Set(), ON).get(2)?.message).toBe(
      'User 2 holds permissions you do not have (users.create, users.delete): only someone who holds all of them can change this account.',
    );
  });

  it('let an actor change a user whose permissions it all holds, and judge changes to oneself by the self rules only', () => {
    const manager: Actor = { ...me, permissions: new Set(['users.view', 'users.update', 'users.setActive']) };
    expect(judge(manager, [{ kind: 'update', target: user(2, true, ['users.view']) }], new Set(), ON).size).toBe(0);
    const self = user(1, true, ['users.view', 'users.update', 'users.setActive', 'tokens.narrowed-away']);
    expect(judge(manager, [{ kind: 'update', target: self }], new Set(), ON).size).toBe(0);
    expect(judge(manager, [{ kind: 'setActive', target: self, active: false }], new Set(), ON).get(1)?.code).toBe(
      'SELF_DEACTIVATION',
    );
  });

  it('put the ceiling before the last-administrator rule', () => {
    const manager: Actor = { ...me, permissions: new Set(['users.setActive']) };
    const lastAdmin = user(2, true, ['users.delete']);
    const change: Change = { kind: 'setActive', target: lastAdmin, active: false };
    expect(judge(manager, [change], new Set([2]), ON).get(2)?.code).toBe('OUTRANKED');
  });

  it('refuse deactivating oneself, unless switched off', () => {
    const change: Change = { kind: 'setActive', target: user(1), active: false };
    expect(judge(me, [change], new Set(), ON).get(1)?.code).toBe('SELF_DEACTIVATION');
    expect(
      judge(
        me,
        [change],
        new Set(),
        off((c) => (c.activation.blockSelfDeactivate = false)),
      ).size,
    ).toBe(0);
  });

  it('refuse deleting oneself whatever the configuration', () => {
    const change: Change = { kind: 'delete', target: user(1, false) };
    const lax = off((c) => {
      c.deletion.requireInactive = false;
      c.deletion.blockIfLastAdmin = false;
    });
    expect(judge(me, [change], new Set(), lax).get(1)?.code).toBe('SELF_DELETE');
  });

  it('refuse deleting an active user, unless switched off', () => {
    const change: Change = { kind: 'delete', target: user(2, true) };
    expect(judge(me, [change], new Set(), ON).get(2)?.code).toBe('NOT_INACTIVE');
    expect(
      judge(
        me,
        [change],
        new Set(),
        off((c) => (c.deletion.requireInactive = false)),
      ).size,
    ).toBe(0);
  });

  it('refuse removing the last active administrator by deactivation, deletion or role removal', () => {
    for (const change of [
      { kind: 'setActive', target: user(2), active: false },
      { kind: 'delete', target: user(2, false) },
      { kind: 'removeAdminRole', target: user(2) },
    ] as Change[]) {
      expect(judge(me, [change], new Set([2]), ON).get(2)?.code, change.kind).toBe('LAST_ADMIN');
    }
    expect(
      judge(
        me,
        [{ kind: 'setActive', target: user(2), active: false }],
        new Set([2]),
        off((c) => (c.activation.blockDeactivateIfLastAdmin = false)),
      ).size,
    ).toBe(0);
    expect(
      judge(
        me,
        [{ kind: 'delete', target: user(2, false) }],
        new Set([2]),
        off((c) => (c.deletion.blockIfLastAdmin = false)),
      ).size,
    ).toBe(0);
  });

  it('judge a batch against the state it would leave: one administrator always remains', () => {
    const changes: Change[] = [2, 3, 4].map((id) => ({ kind: 'setActive', target: user(id), active: false }));
    const refused = judge(me, changes, new Set([2, 3, 4]), ON);
    expect([...refused.keys()]).toEqual([4]);
    expect(refused.get(4)?.message).toBe(
      'User 4 is the last active administrator: make another user an administrator first.',
    );
  });

  it('let administrators go while another remains, and ignore activations', () => {
    expect(judge(me, [{ kind: 'setActive', target: user(2), active: false }], new Set([1, 2]), ON).size).toBe(0);
    expect(judge(me, [{ kind: 'setActive', target: user(2), active: true }], new Set([2]), ON).size).toBe(0);
  });

  it('apply self-delete, then not-inactive, then last-admin, in that order', () => {
    const activeAdmin: Change = { kind: 'delete', target: user(2, true) };
    expect(judge(me, [activeAdmin], new Set([2]), ON).get(2)?.code).toBe('NOT_INACTIVE');
  });
});
