import type { ErrorCode, FieldErrors } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { directGrantRefusal, type RoleGrant, roleRefusal, rolesBeyondActor } from './escalation.js';
import { usersPolicy } from './users.policy.js';
import { type Change, inContractOrder, judge, outranked, type RulesConfig, type Target } from './users.rules.js';

/**
 * Writing one user's account — a creation (POST /users, the CLI's user:create) or an edit (PUT
 * /users/{id}, user:set-password) — as a plan: the facts read under the user's lock and the input
 * in, the changes or the first refusal out, nothing read or written here. The handlers gather the
 * facts (repositories), ask the plan, and apply it; the same plan serves every door.
 */

/** A refusal as the door answers it: the code, the sentence, the field it concerns, the permission missing. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  errors?: FieldErrors;
  permission?: string;
}

/** The roles a change adds and removes, and the user's direct grants before and after. */
export interface RoleDelta {
  added: number[];
  removed: number[];
}
export interface GrantDelta {
  before: string[];
  added: string[];
  removed: string[];
}

/** What the role part of a write depends on: the new list's ids that name no role, and the roles in play. */
export interface RoleFacts {
  unknown: readonly number[];
  /** The roles added or removed, with their permissions (anti-escalation). */
  grants: readonly RoleGrant[];
}

export const EMAIL_TAKEN = 'This e-mail address is already used by another account.';
const STALE = 'Someone else changed this user after you opened it. Reload to see their changes, then edit again.';

const emailTaken = (): Refusal => ({
  code: 'VALIDATION_FAILED',
  message: EMAIL_TAKEN,
  errors: { email: [EMAIL_TAKEN] },
});

/** Replacing a user's roles: every new role exists (422 at `roles_ids.<i>`); the caller holds every permission of each role added or removed (403). */
export function roleRefusalOf(actor: Actor, next: readonly number[], facts: RoleFacts): Refusal | null {
  if (facts.unknown.length) {
    const errors = Object.fromEntries(
      facts.unknown.map((id) => [`roles_ids.${next.indexOf(id)}`, [`There is no role with id ${id}.`]]),
    );
    return { code: 'VALIDATION_FAILED', message: `There is no role with id ${facts.unknown[0]}.`, errors };
  }
  const first = rolesBeyondActor(actor, facts.grants)[0];
  if (!first) return null;
  const message = roleRefusal(first, first.missing);
  return { code: 'FORBIDDEN', message, errors: { roles_ids: [message] }, permission: first.missing[0] ?? '' };
}

export const roleDeltaOf = (current: readonly number[], next: readonly number[]): RoleDelta => ({
  added: next.filter((id) => !current.includes(id)),
  removed: current.filter((id) => !next.includes(id)),
});

/** Replacing a user's direct grants with `next`: the caller gives or takes only what it holds (403 at `permissions`). */
export function grantPlan(actor: Actor, before: readonly string[], next: readonly string[]): GrantDelta | Refusal {
  const added = next.filter((p) => !before.includes(p));
  const removed = before.filter((p) => !next.includes(p));
  const refusal = directGrantRefusal(actor, [...added, ...removed]);
  if (refusal) {
    return {
      code: 'FORBIDDEN',
      message: refusal.message,
      errors: { permissions: [refusal.message] },
      permission: refusal.missing[0] ?? '',
    };
  }
  return { before: [...before], added: inContractOrder(added), removed: inContractOrder(removed) };
}

const isRefusal = (value: GrantDelta | Refusal): value is Refusal => 'code' in value;

/** What a creation depends on, read in its transaction. */
export interface CreateFacts {
  emailTaken: boolean;
  roles: RoleFacts;
}

/** POST /users: the e-mail free, the roles (exist, within the caller), the direct grants (within the caller). */
export function planCreate(
  actor: Actor,
  input: { roles_ids: readonly number[]; permissions: readonly string[] },
  facts: CreateFacts,
): { refusal: Refusal } | { roles: RoleDelta; grants: GrantDelta } {
  if (facts.emailTaken) return { refusal: emailTaken() };
  const roles = roleRefusalOf(actor, input.roles_ids, facts.roles);
  if (roles) return { refusal: roles };
  const grants = grantPlan(actor, [], input.permissions);
  if (isRefusal(grants)) return { refusal: grants };
  return { roles: roleDeltaOf([], input.roles_ids), grants };
}

/** What an edit depends on, read under the user's lock (and the administrators' turn when it could take one away). */
export interface EditFacts {
  target: Target;
  version: string;
  emailTaken: boolean;
  grantsBefore: readonly string[];
  rolesBefore: readonly number[];
  /** Read only when the input replaces the roles. */
  roles: RoleFacts | null;
  adminRoleId: number | null;
  /** The active administrators the last-administrator rule must see. */
  admins: ReadonlySet<number>;
}

export interface EditInput {
  version: string;
  is_active?: boolean | undefined;
  roles_ids?: readonly number[] | undefined;
  permissions?: readonly string[] | undefined;
}

export interface EditPlan {
  /** The status changes (to `input.is_active`). */
  statusChanges: boolean;
  roles: RoleDelta;
  /** Null when the input leaves the direct grants alone. */
  grants: GrantDelta | null;
}

/**
 * PUT /users/{id}, in the order the refusals are told: the privilege ceiling first (a caller who
 * may not touch the account learns nothing more), then the optimistic lock (409), the e-mail, the
 * direct grants, the status (users.setActive), the roles, and the rules (self-deactivation, the
 * last administrator) over the status change and the admin role's removal.
 */
export function planEdit(
  actor: Actor,
  input: EditInput,
  facts: EditFacts,
  rules: RulesConfig,
): { refusal: Refusal } | { plan: EditPlan } {
  const { target } = facts;
  const ceiling = outranked(actor, { kind: 'update', target });
  if (ceiling) return { refusal: ceiling };
  if (facts.version !== input.version) return { refusal: { code: 'VERSION_CONFLICT', message: STALE } };
  if (facts.emailTaken) return { refusal: emailTaken() };
  const grants = input.permissions ? grantPlan(actor, facts.grantsBefore, input.permissions) : null;
  if (grants && isRefusal(grants)) return { refusal: grants };

  const changes: Change[] = [];
  const statusChanges = input.is_active !== undefined && input.is_active !== target.is_active;
  if (statusChanges) {
    if (!usersPolicy.setActive(actor, { id: target.id, deleted_at: target.deleted ? 'deleted' : null })) {
      return {
        refusal: {
          code: 'FORBIDDEN',
          message: 'You need the users.setActive permission to do this.',
          permission: 'users.setActive',
        },
      };
    }
    changes.push({ kind: 'setActive', target, active: input.is_active as boolean });
  }
  let roles: RoleDelta = { added: [], removed: [] };
  if (input.roles_ids) {
    const refused = facts.roles ? roleRefusalOf(actor, input.roles_ids, facts.roles) : null;
    if (refused) return { refusal: refused };
    roles = roleDeltaOf(facts.rolesBefore, input.roles_ids);
  }
  if (facts.adminRoleId !== null && roles.removed.includes(facts.adminRoleId)) {
    changes.push({ kind: 'removeAdminRole', target });
  }
  const violation = judge(actor, changes, facts.admins, rules).get(target.id);
  if (violation) return { refusal: violation };
  return { plan: { statusChanges, roles, grants } };
}
