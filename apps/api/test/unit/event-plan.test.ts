import { AUDIT_ACTIONS, type AuditAction } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { planEvents, planManyEvents } from '../../src/journal/event-plan.js';

/**
 * Actions on a user that change none of its fields: a reset link sent (the reset itself, when the
 * link is used, is `auth.passwordReset` and makes user.password_reset) and a second factor taken
 * away by an administrator (recorded in the trail; no event yet).
 */
const NO_USER_EVENT: readonly AuditAction[] = ['user.sendPasswordReset', 'user.twoFactorReset'];

/** The contract's actions that change users: each must make its webhook events. */
const userChanges = AUDIT_ACTIONS.filter(
  (a) => (a.startsWith('user.') || a.startsWith('users.bulk.')) && !NO_USER_EVENT.includes(a),
);

const entry = (action: AuditAction) => ({
  actorId: 1,
  action,
  targetType: 'user',
  targetIds: [7],
  changes: { is_active: { before: false, after: true } },
});

describe('the journal plans webhook events from the contract actions', () => {
  it.each(userChanges)('%s makes an event for its user', (action) => {
    const plan = planEvents(entry(action));
    expect(plan?.userIds).toEqual([7]);
    expect(plan?.userTypes.length).toBeGreaterThan(0);
  });

  it('a person renaming themselves on /account makes user.updated with the change, as an edit does', () => {
    const plan = planEvents({
      actorId: 7,
      action: 'account.update',
      targetType: 'user',
      targetIds: [7],
      changes: { name: { before: 'Ann', after: 'Ann Lee' } },
    });
    expect(plan).toMatchObject({ userIds: [7], userTypes: ['user.updated'], bulk: null });
    expect(plan?.changes).toEqual({ name: { from: 'Ann', to: 'Ann Lee' } });
  });

  it('a bulk also makes its bulk.completed summary, named by its operation', () => {
    expect(planEvents(entry('users.bulk.forceDelete'))?.bulk).toMatchObject({ operation: 'forceDelete', affected: 1 });
  });

  it.each(['auth.login', 'users.export', 'token.create', 'webhook.update', ...NO_USER_EVENT] as const)(
    '%s makes none',
    (action) => {
      expect(planEvents(entry(action))).toBeNull();
    },
  );

  it.each([
    ['role.create', 'role.created'],
    ['role.update', 'role.updated'],
    ['role.delete', 'role.deleted'],
  ] as const)('%s makes %s for its role, and no user event', (action, type) => {
    const plan = planEvents({
      actorId: 1,
      action,
      targetType: 'role',
      targetIds: [4],
      changes: { name: { before: 'ops', after: action === 'role.delete' ? null : 'ops' } },
    });
    expect(plan?.role).toEqual({ type, id: 4, name: 'ops' });
    expect(plan?.userIds).toEqual([]);
  });

  it('user.created says what the creation gave, each user its own when many are recorded at once', () => {
    const created = (id: number, permissions: string[]) => ({
      actorId: 1,
      action: 'user.create' as const,
      targetType: 'user',
      targetIds: [id],
      changes: { name: { before: null, after: `User ${id}` }, permissions: { before: null, after: permissions } },
    });
    expect(planEvents(created(7, ['audit.view']))?.changes).toEqual({
      name: { from: null, to: 'User 7' },
      permissions: { from: null, to: ['audit.view'] },
    });
    const plan = planManyEvents([created(7, ['audit.view']), created(8, [])]);
    expect(plan?.userIds).toEqual([7, 8]);
    expect(plan?.changesByUser?.get(8)).toEqual({
      name: { from: null, to: 'User 8' },
      permissions: { from: null, to: [] },
    });
  });
});
