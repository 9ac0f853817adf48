import type { ActionState, Permission, UserActions, UserRecordAction } from '@app/contracts';
import { usersPolicy } from '../../policies/users.policy.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../trpc/context.js';
import { permissionsBeyond } from './users.held-permissions.js';
import { type Change, judge, type Target } from './users.rules.js';
import { activeAdminsInPlay, roleIdByName } from './users.write-repository.js';

const PERMISSION: Readonly<Record<UserRecordAction, Permission>> = {
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

/** Why the record policy refuses: the permission, else the record's state. */
function policyRefusal(actor: Actor, action: UserRecordAction, target: Target): ActionState {
  const permission = PERMISSION[action];
  if (!actor.permissions.has(permission)) {
    return { allowed: false, code: 'FORBIDDEN', message: `You need the ${permission} permission to do this.` };
  }
  return target.deleted
    ? { allowed: false, code: 'NOT_FOUND', message: `${target.name} is deleted: restore the account first.` }
    : { allowed: false, code: 'NOT_DELETED', message: `${target.name} is not deleted.` };
}

/**
 * Each action's state for each target, by the record policy and then the rules' `judge` — the
 * very functions the writes run, so what a client shows and what the server would do agree.
 * Each action is judged alone (a status change as the flip of the current status).
 */
export function actionsOf(
  ctx: Context & { actor: Actor },
  target: Target,
  activeAdmins: ReadonlySet<number>,
): UserActions {
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

/**
 * The actions of many users (a list page, one record), reading only what the caller's
 * permissions make relevant: nothing for a caller who may change nobody, the ceiling's grants
 * only for a caller lacking some permission, the administrators only for a caller who could
 * take one away.
 */
export async function actionsFor(
  ctx: Context & { actor: Actor },
  subjects: readonly ActionSubject[],
): Promise<Map<number, UserActions>> {
  const { db, actor } = ctx;
  const may = (p: Permission) => actor.permissions.has(p);
  const changesAnyone = Object.values(PERMISSION).some(may);
  const ids = subjects.map((s) => s.id);
  const held = changesAnyone ? await permissionsBeyond(db, null, actor, ids) : new Map<number, Set<string>>();
  const removesAdmins = may('users.setActive') || may('users.delete');
  const admins = removesAdmins
    ? await activeAdminsInPlay(
        db,
        null,
        await roleIdByName(db, null, ctx.config.users.activation.adminRoleName),
        subjects.filter((s) => s.is_active && !s.deleted).map((s) => s.id),
      )
    : new Set<number>();
  const none: ReadonlySet<string> = new Set();
  return new Map(
    subjects.map((s) => [s.id, actionsOf(ctx, { ...s, permissions: held.get(s.id) ?? none }, admins)] as const),
  );
}
