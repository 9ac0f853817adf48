import { type BulkOperation, type BulkReport, isBulkRoleOperation } from '@app/contracts';
import type { Transaction } from 'sequelize';
import { recordChange } from '../../journal/journal.js';
import type { AuditChanges } from '../../db/models/audit.model.js';
import { toIso } from '../../db/sql-date.js';
import { type Change, judge, type Target } from '../../domain/users.rules.js';
import { trashRefusal } from '../../domain/users.trash.js';
import { type CountedState, statsDelta, withStatsDeferred } from './users.stats-deferral.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerContext } from '../../context.js';
import { destroyMany, lockTargets, revokeCredentials, updateMany } from './users.batch-repository.js';
import { activeAdminsInPlay, lockAdministratorChanges, roleIdByName } from '../../repositories/users.locks.js';
import type { RoleGrant } from '../../domain/escalation.js';
import { applyRoleChange, holdersAmong } from './bulk.roles.js';

/**
 * One batch of a bulk change inside the caller's transaction: the synchronous POST /users/bulk
 * runs one over its ids, a bulk job one per chunk of its selection. Each id meets the rules of
 * its single-record route, judged against the state the whole batch would leave.
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

/** Why `user` cannot take part in `operation` whatever the rules say (state, existence). */
function stateSkip(operation: BulkOperation, id: number, user: Target | undefined): Skip | null {
  if (!user) return { id, code: 'NOT_FOUND', message: `There is no user with id ${id}.` };
  const place = trashRefusal(operation, user);
  return place ? { id, ...place } : null;
}

function toChange(input: BulkSpec, user: Target, adminRoleId: number | null): Change {
  switch (input.operation) {
    case 'setActive':
      return { kind: 'setActive', target: user, active: input.active as boolean };
    // As the edit form judges a role change: the ceiling, and the last-administrator rule when the
    // admin role is taken away.
    case 'addRole':
      return { kind: 'update', target: user };
    case 'removeRole':
      return input.role?.id === adminRoleId
        ? { kind: 'removeAdminRole', target: user }
        : { kind: 'update', target: user };
    case 'delete':
    case 'restore':
    case 'forceDelete':
      return { kind: input.operation, target: user };
  }
}

/** Each operation's effect on a row's counted state (null: the row is erased). */
function stateAfter(input: BulkSpec, user: Target): CountedState {
  const { deleted, is_active } = user;
  switch (input.operation) {
    case 'setActive':
      return { is_active: input.active as boolean, deleted };
    case 'delete':
      return { is_active, deleted: true };
    case 'restore':
      return { is_active, deleted: false };
    case 'forceDelete':
      return null;
    case 'addRole':
    case 'removeRole':
      return { is_active, deleted };
  }
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

async function apply(ctx: HandlerContext, input: BulkSpec, users: Map<number, Target>, ids: number[], tx: Transaction) {
  const { db } = ctx;
  const now = new Date();
  let changes: AuditChanges = {};
  const delta = statsDelta(
    ids.map((id) => {
      const user = users.get(id) as Target;
      return {
        before: { is_active: user.is_active, deleted: user.deleted },
        after: stateAfter(input, user),
      };
    }),
  );
  await withStatsDeferred(db, tx, delta, async () => {
    switch (input.operation) {
      case 'setActive': {
        const active = input.active as boolean;
        const changing = ids.filter((id) => users.get(id)?.is_active !== active);
        await updateMany(db, tx, changing, { is_active: active });
        if (!active) await revokeCredentials(db, tx, changing);
        changes = { is_active: { before: !active, after: active } };
        break;
      }
      case 'delete':
        await updateMany(db, tx, ids, { deleted_at: now });
        await revokeCredentials(db, tx, ids);
        changes = { deleted_at: { before: null, after: toIso(now) } };
        break;
      case 'restore':
        await updateMany(db, tx, ids, { deleted_at: null });
        changes = { deleted_at: { before: 'deleted', after: null } };
        break;
      case 'forceDelete':
        await destroyMany(db, tx, ids);
        changes = { record: { before: 'deleted', after: 'erased' } };
        break;
      case 'addRole':
      case 'removeRole':
        throw new Error('role changes are applied by applyRoleChange');
    }
  });
  return changes;
}

/** How a batch went: the ids changed (or, in a dry run, that would be), and those skipped and why. */
export interface BatchOutcome {
  affected: number[];
  skipped: Skip[];
  /** Affected ids already in the asked-for state (setActive): applied, but nothing changed. */
  unchanged: number[];
  /** How many active administrators the batch takes away (or would, in a dry run). */
  adminsRemoved: number;
}

/**
 * Judges `ids` under their row locks and, unless `dryRun`, applies the change to those the rules
 * allow and records it (one audit row naming them, and each user's webhook events). `context`
 * joins the audit row's (a job's id, for its chunks).
 */
export async function runBatch(
  ctx: HandlerContext,
  spec: BulkSpec,
  ids: readonly number[],
  tx: Transaction,
  options:
    | { dryRun: false; context?: Record<string, unknown> }
    | {
        dryRun: true;
        context?: Record<string, unknown>;
        /** Administrators earlier batches of a dry run would have taken away (they are still active). */
        adminsGone?: number;
        /** The rows `ids` name, as the caller just read them (taken over): a dry run changes nothing, so it needs no locks. */
        read?: Map<number, Target> | undefined;
      },
): Promise<BatchOutcome> {
  const { db, config } = ctx;
  const adminRoleName = config.users.activation.adminRoleName;
  const roleOperation = isBulkRoleOperation(spec.operation);
  if (roleOperation && !spec.role) throw new Error(`${spec.operation} needs its role`);
  // Known before the turn is taken: only taking the admin role away may remove an administrator.
  const adminRoleIdFirst = spec.operation === 'removeRole' ? await roleIdByName(db, tx, adminRoleName) : null;
  const removesAdmins =
    spec.operation === 'delete' ||
    (spec.operation === 'setActive' && spec.active === false) ||
    (spec.operation === 'removeRole' && spec.role?.id === adminRoleIdFirst);
  const read = options.dryRun ? options.read : undefined;
  if (removesAdmins && !read) await lockAdministratorChanges(db, tx);
  // The caller's map is taken over (the permissions held are added to it), not copied: at 10 000
  // users a chunk, the copy was a dry run's costliest line.
  const users = read ?? (await lockTargets(db, tx, ids));
  const held = await permissionsBeyond(db, tx, ctx.actor, [...users.keys()]);
  for (const [id, permissions] of held) users.set(id, { ...(users.get(id) as Target), permissions });
  const skipped: Skip[] = [];
  let candidates: number[] = [];
  for (const id of ids) {
    const skip = stateSkip(spec.operation, id, users.get(id));
    if (skip) skipped.push(skip);
    else candidates.push(id);
  }
  if (roleOperation) {
    // Nothing to do for these, so nothing to refuse: they are skipped before the rules are asked.
    const holders = await holdersAmong(db, tx, spec.role?.id as number, candidates);
    candidates = candidates.filter((id) => {
      const skip = roleSkip(spec, users.get(id) as Target, holders.has(id));
      if (skip) skipped.push(skip);
      return !skip;
    });
  }
  const adminRoleId = removesAdmins ? (adminRoleIdFirst ?? (await roleIdByName(db, tx, adminRoleName))) : null;
  const admins = removesAdmins
    ? await activeAdminsInPlay(db, tx, adminRoleId, candidates, options.dryRun ? (options.adminsGone ?? 0) : 0)
    : new Set<number>();
  // Rules judge in id order, so the same batch always keeps the same administrator.
  const ordered = [...candidates].sort((a, b) => a - b);
  const changes = ordered.map((id) => toChange(spec, users.get(id) as Target, adminRoleIdFirst));
  const violations = judge(ctx.actor, changes, admins, config.users);
  for (const id of candidates) {
    const v = violations.get(id);
    if (v) skipped.push({ id, code: v.code, message: v.message });
  }
  const affected = candidates.filter((id) => !violations.has(id));
  // Already in the requested state: applied (the report says so) but not changed, so no
  // user.activated/deactivated event is sent for them.
  const unchanged =
    spec.operation === 'setActive' ? affected.filter((id) => users.get(id)?.is_active === spec.active) : [];
  const adminsRemoved = removesAdmins ? affected.filter((id) => admins.has(id)).length : 0;
  if (options.dryRun || affected.length === 0) return { affected, skipped, unchanged, adminsRemoved };
  if (isBulkRoleOperation(spec.operation)) {
    const change = { operation: spec.operation, role: spec.role as RoleGrant, requested: ids.length, skipped };
    await applyRoleChange(ctx, tx, change, affected, options.context);
    return { affected, skipped, unchanged, adminsRemoved };
  }
  const auditChanges = await apply(ctx, spec, users, affected, tx);
  await recordChange(db, tx, {
    ...auditOriginOf(ctx),
    action: `users.bulk.${spec.operation}`,
    targetType: 'user',
    targetIds: affected,
    changes: auditChanges,
    context: {
      requested: ids.length,
      skipped: skipped.map((s) => ({ id: s.id, code: s.code })),
      ...(unchanged.length ? { unchanged } : {}),
      ...options.context,
    },
  });
  return { affected, skipped, unchanged, adminsRemoved };
}
