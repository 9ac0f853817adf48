import { clearReferencesTo } from '../attributes/attribute-references.js';
import { isBulkRoleOperation } from '@app/contracts';
import type { Transaction } from 'sequelize';
import { recordChange } from '../../journal/journal.js';
import type { AuditChanges } from '../../db/models/audit.model.js';
import { toIso } from '../../db/sql-date.js';
import type { Target } from '../../domain/users.rules.js';
import { batchCandidates, type BulkSpec, planBatch, removesAdmins, type Skip } from '../../domain/users.bulk-plan.js';
import { type CountedState, statsDelta, withStatsDeferred } from './users.stats-deferral.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerContext } from '../../context.js';
import { destroyMany, lockTargetsWithVersions, revokeCredentials, updateMany } from './users.batch-repository.js';
import { activeAdminsInPlay, lockAdministratorChanges, roleIdByName } from '../../repositories/users.locks.js';
import type { RoleGrant } from '../../domain/escalation.js';
import { applyRoleChange, holdersAmong } from './bulk.roles.js';
import type { BulkChange } from '../../bulk/bulk-declaration.js';

/**
 * One batch of a bulk change inside the caller's transaction: the synchronous POST /users/bulk
 * runs one over its ids, a bulk job one per chunk of its selection. Each id meets the rules of
 * its single-record route, judged against the state the whole batch would leave.
 */

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
    case 'invite':
    case 'setAttribute':
      return { is_active, deleted };
  }
}

/** What the batch changed, for the job's report (`job_changes`): one group, the rows alike. */
function rowChanges(input: BulkSpec, users: Map<number, Target>, ids: readonly number[]): BulkChange[] {
  const group = (from: Record<string, unknown>, to: Record<string, unknown>, changed = [...ids], erased = false) =>
    changed.length === 0 ? [] : [{ ids: changed, from, to, ...(erased ? { erased } : {}) }];
  switch (input.operation) {
    case 'setActive': {
      const active = input.active as boolean;
      const changing = ids.filter((id) => users.get(id)?.is_active !== active);
      return group({ is_active: !active }, { is_active: active }, changing);
    }
    case 'delete':
      return group({ deleted: false }, { deleted: true });
    case 'restore':
      return group({ deleted: true }, { deleted: false });
    case 'forceDelete':
      return group({ erased: false }, { erased: true }, [...ids], true);
    default:
      return [];
  }
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
        await clearReferencesTo(ctx, tx, ids);
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
      case 'invite':
        throw new Error('invitations are issued by runInviteBatch');
      case 'setAttribute':
        throw new Error('attribute values are set by runAttributeBatch');
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
  /** What a real batch changed, user by user (the job's report). */
  changes?: BulkChange[];
}

/**
 * Locks what a real batch of `spec` over `ids` writes, in the one order every writer takes: the
 * administrators' turn first when the change can take an administrator away (rules 2 and 4),
 * then the rows in id order. The rows come back as the rules judge them, with their versions.
 */
export async function lockBatch(
  ctx: HandlerContext,
  spec: BulkSpec,
  ids: readonly number[],
  tx: Transaction,
  /** The admin role's id when the caller has read it already (a removeRole's). */
  known?: number | null,
) {
  const { db, config } = ctx;
  const adminRoleId =
    spec.operation !== 'removeRole'
      ? null
      : known !== undefined
        ? known
        : await roleIdByName(db, tx, config.users.activation.adminRoleName);
  if (removesAdmins(spec, adminRoleId)) await lockAdministratorChanges(db, tx);
  return lockTargetsWithVersions(db, tx, ids);
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
    | {
        dryRun: false;
        context?: Record<string, unknown>;
        /** The rows `ids` name, as the caller locked them in this transaction with `lockBatch` (taken over). */
        locked?: Map<number, Target>;
      }
    | {
        dryRun: true;
        context?: Record<string, unknown>;
        /** Administrators earlier batches of a dry run would have taken away (they are still active). */
        adminsGone?: number;
        /** The rows `ids` name, as the caller just read them (taken over): a dry run changes nothing, so it needs no locks. */
        read?: Map<number, Target> | undefined;
      },
): Promise<BatchOutcome> {
  if (spec.operation === 'invite') throw new Error('invitations are issued by runInviteBatch (bulk.invite.ts)');
  if (spec.operation === 'setAttribute') throw new Error('attribute values are set by runAttributeBatch');
  const { db, config } = ctx;
  const adminRoleName = config.users.activation.adminRoleName;
  const roleOperation = isBulkRoleOperation(spec.operation);
  if (roleOperation && !spec.role) throw new Error(`${spec.operation} needs its role`);
  // Known before the turn is taken: only taking the admin role away may remove an administrator.
  const adminRoleIdFirst = spec.operation === 'removeRole' ? await roleIdByName(db, tx, adminRoleName) : null;
  const takesAdmins = removesAdmins(spec, adminRoleIdFirst);
  const read = options.dryRun ? options.read : options.locked;
  // The caller's map is taken over (the permissions held are added to it), not copied: at 10 000
  // users a chunk, the copy was a dry run's costliest line.
  const users = read ?? (await lockBatch(ctx, spec, ids, tx, adminRoleIdFirst)).targets;
  const held = await permissionsBeyond(db, tx, ctx.actor, [...users.keys()]);
  for (const [id, permissions] of held) users.set(id, { ...(users.get(id) as Target), permissions });
  // The facts read only for the users that can take part at all.
  const { candidates } = batchCandidates(spec, ids, users);
  const holders = roleOperation ? await holdersAmong(db, tx, spec.role?.id as number, candidates) : new Set<number>();
  const adminRoleId = takesAdmins ? (adminRoleIdFirst ?? (await roleIdByName(db, tx, adminRoleName))) : null;
  const admins = takesAdmins
    ? await activeAdminsInPlay(
        db,
        tx,
        adminRoleId,
        candidates.filter((id) => !roleOperation || holders.has(id) === (spec.operation === 'removeRole')),
        options.dryRun ? (options.adminsGone ?? 0) : 0,
      )
    : new Set<number>();
  const { affected, skipped, unchanged, adminsRemoved } = planBatch(
    ctx.actor,
    spec,
    ids,
    { users, holders, adminRoleId: adminRoleIdFirst, admins },
    config.users,
  );
  if (options.dryRun || affected.length === 0) return { affected, skipped, unchanged, adminsRemoved };
  if (isBulkRoleOperation(spec.operation)) {
    const change = { operation: spec.operation, role: spec.role as RoleGrant, requested: ids.length, skipped };
    const changes = await applyRoleChange(ctx, tx, change, affected, options.context);
    return { affected, skipped, unchanged, adminsRemoved, changes };
  }
  // Read before the write: an erased user's row is gone after it.
  const changes = rowChanges(spec, users, affected);
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
  return { affected, skipped, unchanged, adminsRemoved, changes };
}
