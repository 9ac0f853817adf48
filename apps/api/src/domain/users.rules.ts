import { PERMISSIONS, type UsersRuleCode } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { AppError } from '../errors.js';

/** The rules' switches (SPEC §7), as the users configuration carries them. */
export interface RulesConfig {
  activation: { blockSelfDeactivate: boolean; blockDeactivateIfLastAdmin: boolean; adminRoleName: string };
  deletion: { requireInactive: boolean; blockIfLastAdmin: boolean };
}

/** What the rules need to know about a user a change targets (read under lock). */
export interface Target {
  id: number;
  name: string;
  is_active: boolean;
  deleted: boolean;
  /**
   * The permissions the user holds (roles and direct grants) that the acting user may lack. Those
   * the actor holds cannot make the user outrank it, so loaders may leave them out.
   */
  permissions: ReadonlySet<string>;
}

/** A change to one user. A PUT produces one per thing it changes (fields, status, admin role). */
export type Change =
  | { kind: 'update'; target: Target }
  | { kind: 'setActive'; target: Target; active: boolean }
  | { kind: 'delete'; target: Target }
  | { kind: 'removeAdminRole'; target: Target }
  | { kind: 'restore'; target: Target }
  | { kind: 'forceDelete'; target: Target };

export interface Violation {
  id: number;
  code: UsersRuleCode;
  message: string;
}

const violation = (target: Target, code: UsersRuleCode, message: string): Violation => ({
  id: target.id,
  code,
  message,
});

/** Permission names in the contract's order (grouped by resource); unknown ones last, by name. */
export function inContractOrder(names: string[]): string[] {
  const rank = (name: string) => {
    const at = (PERMISSIONS as readonly string[]).indexOf(name);
    return at === -1 ? PERMISSIONS.length : at;
  };
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * The privilege ceiling: nobody changes another account that holds a permission they lack,
 * whatever the change (fields, e-mail, password, status, deletion, restore, purge) — otherwise
 * changing an administrator's e-mail or password would make its holder one. Changes to oneself
 * are left to the self rules.
 */
export function outranked(actor: Actor, change: Change): Violation | null {
  const { target } = change;
  // Most targets hold nothing beyond the actor: a bulk judges hundreds of thousands of them.
  if (target.id === actor.id || target.permissions.size === 0) return null;
  const missing = inContractOrder([...target.permissions].filter((p) => !actor.permissions.has(p)));
  if (missing.length === 0) return null;
  return violation(
    target,
    'OUTRANKED',
    `${target.name} holds permissions you do not have (${missing.join(', ')}): only someone who holds all of them can change this account.`,
  );
}

/** Rule 1: nobody deactivates their own account. */
export function selfDeactivation(actor: Actor, change: Change, cfg: RulesConfig): Violation | null {
  if (!cfg.activation.blockSelfDeactivate) return null;
  return change.kind === 'setActive' && !change.active && change.target.id === actor.id
    ? violation(change.target, 'SELF_DEACTIVATION', 'You cannot deactivate your own account.')
    : null;
}

/** Nobody deletes their own account (not configurable: it would end the very session asking). */
export function selfDelete(actor: Actor, change: Change): Violation | null {
  return change.kind === 'delete' && change.target.id === actor.id
    ? violation(change.target, 'SELF_DELETE', 'You cannot delete your own account.')
    : null;
}

/** Rule 3: only an inactive user may be deleted. */
export function notInactive(change: Change, cfg: RulesConfig): Violation | null {
  if (!cfg.deletion.requireInactive) return null;
  return change.kind === 'delete' && change.target.is_active
    ? violation(
        change.target,
        'NOT_INACTIVE',
        `${change.target.name} is active: deactivate the account before deleting it.`,
      )
    : null;
}

/** Whether a change takes its target out of the active administrators. */
export const takesAdminAway = (change: Change) =>
  change.kind === 'delete' || change.kind === 'removeAdminRole' || (change.kind === 'setActive' && !change.active);

/** Whether the last-administrator rule guarding this kind of change is switched on. */
const lastAdminRuleOn = (change: Change, cfg: RulesConfig) =>
  change.kind === 'delete' ? cfg.deletion.blockIfLastAdmin : cfg.activation.blockDeactivateIfLastAdmin;

/**
 * Judges a batch of changes against the state it would leave, in order: each change first meets
 * the privilege ceiling, then its own rules (self-deactivation, self-delete, not inactive), then rules 2 and 4 — it may
 * take an active administrator away only while another one would remain. `activeAdmins` are the
 * active, non-deleted holders of the admin role among the targets, plus any other one (read in
 * the administrators' turn by the caller): whether one would remain depends on nothing else.
 * Returns the violations by target id; changes without one may be applied together.
 */
export function judge(actor: Actor, changes: readonly Change[], activeAdmins: ReadonlySet<number>, cfg: RulesConfig) {
  const remaining = new Set(activeAdmins);
  const refused = new Map<number, Violation>();
  for (const change of changes) {
    if (refused.has(change.target.id)) continue;
    const own =
      outranked(actor, change) ??
      selfDelete(actor, change) ??
      selfDeactivation(actor, change, cfg) ??
      notInactive(change, cfg);
    if (own) {
      refused.set(change.target.id, own);
      continue;
    }
    if (!remaining.has(change.target.id) || !takesAdminAway(change)) continue;
    if (remaining.size === 1 && lastAdminRuleOn(change, cfg)) {
      refused.set(
        change.target.id,
        violation(
          change.target,
          'LAST_ADMIN',
          `${change.target.name} is the last active administrator: make another user an administrator first.`,
        ),
      );
      continue;
    }
    remaining.delete(change.target.id);
  }
  return refused;
}

/** A single-record route refuses with the rule's own code (422). */
export function refuse(violation: Violation): never {
  throw new AppError(violation.code, violation.message);
}
