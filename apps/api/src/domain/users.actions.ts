import type { ActionState, Permission, UserActions, UserRecordAction } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { usersPolicy } from './users.policy.js';
import { trashRefusal } from './users.trash.js';
import { type Change, judge, type RulesConfig, type Target } from './users.rules.js';

/** What deciding the actions needs: who asks, and the rules' switches. */
export interface ActionsContext {
  actor: Actor;
  config: { users: RulesConfig };
}

const ACTION_PERMISSIONS: Readonly<Record<UserRecordAction, Permission>> = {
  update: 'users.update',
  setActive: 'users.setActive',
  delete: 'users.delete',
  restore: 'users.restore',
  forceDelete: 'users.forceDelete',
};

const ALLOWED: ActionState = { allowed: true };

/** The change the action would make (status actions flip the current status). */
function changeOf(action: UserRecordAction, target: Target): Change {
  return action === 'setActive' ? { kind: 'setActive', target, active: !target.is_active } : { kind: action, target };
}

/** The refusal of a caller who lacks the permission an action needs: one sentence for every action. */
export const missingPermission = (permission: Permission): ActionState => ({
  allowed: false,
  code: 'FORBIDDEN',
  message: `You need the ${permission} permission to do this.`,
});

/** Why the record policy refuses: the permission, else the record's state. */
function policyRefusal(actor: Actor, action: UserRecordAction, target: Target): ActionState {
  const permission = ACTION_PERMISSIONS[action];
  if (!actor.permissions.has(permission)) return missingPermission(permission);
  const place = trashRefusal(action, target);
  return place ? { allowed: false, ...place } : { allowed: false, code: 'FORBIDDEN' };
}

/**
 * Each action's state for each target, by the record policy and then the rules' `judge` — the
 * very functions the writes run, so what a client shows and what the server would do agree.
 * Each action is judged alone (a status change as the flip of the current status).
 */
export function actionsOf(ctx: ActionsContext, target: Target, activeAdmins: ReadonlySet<number>): UserActions {
  const record = { id: target.id, deleted_at: target.deleted ? 'deleted' : null };
  const state = (action: UserRecordAction): ActionState => {
    if (!usersPolicy[action](ctx.actor, record)) return policyRefusal(ctx.actor, action, target);
    const violation = judge(ctx.actor, [changeOf(action, target)], activeAdmins, ctx.config.users).get(target.id);
    return violation ? { allowed: false, code: violation.code, message: violation.message } : ALLOWED;
  };
  return {
    update: state('update'),
    setActive: state('setActive'),
    delete: state('delete'),
    restore: state('restore'),
    forceDelete: state('forceDelete'),
  };
}

export type ActionSubject = Omit<Target, 'permissions'>;

/** What the actions of some users depend on in the database (`readActionFacts`). */
export interface ActionFacts {
  /** Each user's permissions beyond the caller's (the ceiling). */
  held: ReadonlyMap<number, ReadonlySet<string>>;
  /** The active administrators the last-administrator rule must see. */
  admins: ReadonlySet<number>;
}

/** Each subject's actions from the facts read for them. */
export function actionsFrom(
  ctx: ActionsContext,
  subjects: readonly ActionSubject[],
  facts: ActionFacts,
): Map<number, UserActions> {
  const none: ReadonlySet<string> = new Set();
  return new Map(
    subjects.map(
      (s) => [s.id, actionsOf(ctx, { ...s, permissions: facts.held.get(s.id) ?? none }, facts.admins)] as const,
    ),
  );
}

/**
 * Which facts the actions of a caller depend on: the ceiling's grants only for one who may change
 * somebody, the administrators only for one who could take one away (deactivate or delete).
 */
export function factsNeeded(actor: Actor): { changesAnyone: boolean; removesAdmins: boolean } {
  const may = (p: Permission) => actor.permissions.has(p);
  return {
    changesAnyone: Object.values(ACTION_PERMISSIONS).some(may),
    removesAdmins: may('users.setActive') || may('users.delete'),
  };
}
