import type { BulkOperation, BulkReport } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import type { RoleGrant } from './escalation.js';
import { type Change, judge, type RulesConfig, type Target } from './users.rules.js';
import { trashRefusal } from './users.trash.js';

/**
 * One batch of a bulk change as a plan, the shape of a single write's (users.edit-plan.ts): the
 * users read under their locks and the facts about them in, who is changed and who is skipped
 * and why out, nothing read or written here. Each id meets the rules of its single-record route,
 * judged against the state the whole batch would leave.
 */

/** What to do to every user of a batch. */
export interface BulkSpec {
  operation: BulkOperation;
  /** For setActive. */
  active?: boolean | undefined;
  /** For addRole and removeRole: the role, found and allowed to the actor (`bulkRole`). */
  role?: RoleGrant | undefined;
}

export type Skip = BulkReport['skipped'][number];

/** What a batch's decisions depend on, read in its transaction. */
export interface BatchFacts {
  /** The users the ids name, with the permissions each holds beyond the actor. */
  users: ReadonlyMap<number, Target>;
  /** For addRole and removeRole: which of the candidates hold the role. */
  holders: ReadonlySet<number>;
  /** The admin role's id, when the batch could take the admin role away. */
  adminRoleId: number | null;
  /** The active administrators the last-administrator rule must see. */
  admins: ReadonlySet<number>;
}

export interface BatchPlan {
  affected: number[];
  skipped: Skip[];
  /** Affected ids already in the asked-for state (setActive): applied, but nothing changed. */
  unchanged: number[];
  /** How many active administrators the batch takes away. */
  adminsRemoved: number;
}

/** Whether the batch could take an administrator away, so it must take the administrators' turn. */
export function removesAdmins(spec: BulkSpec, adminRoleId: number | null): boolean {
  return (
    spec.operation === 'delete' ||
    (spec.operation === 'setActive' && spec.active === false) ||
    (spec.operation === 'removeRole' && spec.role?.id === adminRoleId)
  );
}

/** Why `user` cannot take part in `operation` whatever the rules say (state, existence). */
function stateSkip(operation: BulkOperation, id: number, user: Target | undefined): Skip | null {
  if (!user) return { id, code: 'NOT_FOUND', message: `There is no user with id ${id}.` };
  const place = trashRefusal(operation, user);
  return place ? { id, ...place } : null;
}

/** A user the role operation would leave as it is: already holding the role, or not holding it. */
function roleSkip(spec: BulkSpec, user: Target, holds: boolean): Skip | null {
  const role = spec.role?.name ?? '';
  if (spec.operation === 'addRole' && holds)
    return { id: user.id, code: 'ROLE_ALREADY_HELD', message: `${user.name} already has the role ${role}.` };
  if (spec.operation === 'removeRole' && !holds)
    return { id: user.id, code: 'ROLE_NOT_HELD', message: `${user.name} does not have the role ${role}.` };
  return null;
}

function toChange(spec: BulkSpec, user: Target, adminRoleId: number | null): Change {
  switch (spec.operation) {
    case 'setActive':
      return { kind: 'setActive', target: user, active: spec.active as boolean };
    // As the edit form judges a role change: the ceiling, and the last-administrator rule when the
    // admin role is taken away.
    case 'addRole':
    // Invitations are planned by planInvites (users.invite.ts); judged as an edit, should one come here.
    case 'invite':
    // An attribute value is changed on the edit form, under its rules (the ceiling).
    case 'setAttribute':
      return { kind: 'update', target: user };
    case 'removeRole':
      return spec.role?.id === adminRoleId
        ? { kind: 'removeAdminRole', target: user }
        : { kind: 'update', target: user };
    case 'delete':
    case 'restore':
    case 'forceDelete':
      return { kind: spec.operation, target: user };
  }
}

/** The ids that could take part (existing, in the right place), the rest skipped. */
export function batchCandidates(spec: BulkSpec, ids: readonly number[], users: ReadonlyMap<number, Target>) {
  const skipped: Skip[] = [];
  const candidates: number[] = [];
  for (const id of ids) {
    const skip = stateSkip(spec.operation, id, users.get(id));
    if (skip) skipped.push(skip);
    else candidates.push(id);
  }
  return { candidates, skipped };
}

/** The batch's plan: state and role skips first (nothing to refuse), then the rules, in id order. */
export function planBatch(
  actor: Actor,
  spec: BulkSpec,
  ids: readonly number[],
  facts: BatchFacts,
  rules: RulesConfig,
): BatchPlan {
  const { users } = facts;
  const found = batchCandidates(spec, ids, users);
  const skipped = [...found.skipped];
  const candidates = found.candidates.filter((id) => {
    const skip =
      spec.operation === 'addRole' || spec.operation === 'removeRole'
        ? roleSkip(spec, users.get(id) as Target, facts.holders.has(id))
        : null;
    if (skip) skipped.push(skip);
    return !skip;
  });
  // Rules judge in id order, so the same batch always keeps the same administrator.
  const ordered = [...candidates].sort((a, b) => a - b);
  const changes = ordered.map((id) => toChange(spec, users.get(id) as Target, facts.adminRoleId));
  const violations = judge(actor, changes, facts.admins, rules);
  for (const id of candidates) {
    const v = violations.get(id);
    if (v) skipped.push({ id, code: v.code, message: v.message });
  }
  const affected = candidates.filter((id) => !violations.has(id));
  // Already in the requested state: applied (the report says so) but not changed.
  const unchanged =
    spec.operation === 'setActive' ? affected.filter((id) => users.get(id)?.is_active === spec.active) : [];
  const adminsRemoved = affected.filter((id) => facts.admins.has(id)).length;
  return { affected, skipped, unchanged, adminsRemoved };
}
