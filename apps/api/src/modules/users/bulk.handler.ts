import type { BulkInput, BulkReport } from '@app/contracts';
import type { Transaction } from 'sequelize';
import { recordChange } from '../../journal/journal.js';
import type { AuditChanges } from '../../db/models/audit.model.js';
import { writeTransaction } from '../../db/transaction.js';
import { toIso } from './users.read-repository.js';
import { type Change, judge, type Target } from '../../domain/users.rules.js';
import { type CountedState, statsDelta, withStatsDeferred } from './users.stats-deferral.js';
import { permissionsBeyond } from '../../domain/held-permissions.js';
import { auditOrigin, type WriteContext } from './users.write-support.js';
import { destroyMany, lockTargets, revokeCredentials, updateMany } from './users.batch-repository.js';
import { activeAdminsInPlay, lockAdministratorChanges, roleIdByName } from '../../domain/users.locks.js';

type Skip = BulkReport['skipped'][number];

/** Thrown to roll a dry run back after it computed its report with the real code path. */
class DryRun extends Error {
  constructor(readonly report: BulkReport) {
    super('dry run');
  }
}

/** Why `user` cannot take part in `operation` whatever the rules say (state, existence). */
function stateSkip(operation: BulkInput['operation'], id: number, user: Target | undefined): Skip | null {
  if (!user) return { id, code: 'NOT_FOUND', message: `There is no user with id ${id}.` };
  const deleted = user.deleted;
  if ((operation === 'restore' || operation === 'forceDelete') && !deleted) {
    return { id, code: 'NOT_DELETED', message: `${user.name} is not deleted.` };
  }
  if ((operation === 'delete' || operation === 'setActive') && deleted) {
    return { id, code: 'NOT_FOUND', message: `${user.name} is deleted: restore the account first.` };
  }
  return null;
}

function toChange(input: BulkInput, user: Target): Change {
  switch (input.operation) {
    case 'setActive':
      return { kind: 'setActive', target: user, active: input.active as boolean };
    case 'delete':
    case 'restore':
    case 'forceDelete':
      return { kind: input.operation, target: user };
  }
}

/** Each operation's effect on a row's counted state (null: the row is erased). */
function stateAfter(input: BulkInput, user: Target): CountedState {
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
  }
}

async function apply(ctx: WriteContext, input: BulkInput, users: Map<number, Target>, ids: number[], tx: Transaction) {
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
    }
  });
  return changes;
}

/**
 * POST /users/bulk: each id meets the rules of its single-record route, judged against the
 * state the whole batch would leave; failing and missing ids are skipped with a reason and the
 * rest are applied in one transaction (all or none). A dry run runs the same code and rolls back.
 */
export async function runBulk({ ctx, input }: { ctx: WriteContext; input: BulkInput }): Promise<BulkReport> {
  const { db, config } = ctx;
  try {
    return await writeTransaction(db, async (tx) => {
      const removesAdmins = input.operation === 'delete' || (input.operation === 'setActive' && input.active === false);
      if (removesAdmins) await lockAdministratorChanges(db, tx);
      const users = await lockTargets(db, tx, input.ids);
      const held = await permissionsBeyond(db, tx, ctx.actor, [...users.keys()]);
      for (const [id, permissions] of held) users.set(id, { ...(users.get(id) as Target), permissions });
      const skipped: Skip[] = [];
      const candidates: number[] = [];
      for (const id of input.ids) {
        const skip = stateSkip(input.operation, id, users.get(id));
        if (skip) skipped.push(skip);
        else candidates.push(id);
      }
      const admins = removesAdmins
        ? await activeAdminsInPlay(
            db,
            tx,
            await roleIdByName(db, tx, config.users.activation.adminRoleName),
            candidates,
          )
        : new Set<number>();
      // Rules judge in id order, so the same batch always keeps the same administrator.
      const ordered = [...candidates].sort((a, b) => a - b);
      const changes = ordered.map((id) => toChange(input, users.get(id) as Target));
      const violations = judge(ctx.actor, changes, admins, config.users);
      for (const id of candidates) {
        const v = violations.get(id);
        if (v) skipped.push({ id, code: v.code, message: v.message });
      }
      const affected = candidates.filter((id) => !violations.has(id));
      const report: BulkReport = {
        operation: input.operation,
        dryRun: input.dryRun,
        requested: input.ids.length,
        affected,
        skipped,
      };
      if (input.dryRun) throw new DryRun(report);
      if (affected.length) {
        const auditChanges = await apply(ctx, input, users, affected, tx);
        // Already in the requested state: applied (the report says so) but not changed, so
        // no user.activated/deactivated event is sent for them.
        const unchanged =
          input.operation === 'setActive' ? affected.filter((id) => users.get(id)?.is_active === input.active) : [];
        await recordChange(db, tx, {
          ...auditOrigin(ctx),
          action: `users.bulk.${input.operation}`,
          targetType: 'user',
          targetIds: affected,
          changes: auditChanges,
          context: {
            requested: input.ids.length,
            skipped: skipped.map((s) => ({ id: s.id, code: s.code })),
            ...(unchanged.length ? { unchanged } : {}),
          },
        });
      }
      return report;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.report;
    throw err;
  }
}
