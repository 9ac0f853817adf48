import { BULK_PERMISSIONS } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import { sqlDate } from '../../db/sql-date.js';
import { writeTransaction } from '../../db/transaction.js';
import { assertBulkRole } from '../../modules/users/bulk.roles.js';
import { runBatch } from '../../modules/users/bulk.chunk.js';
import type { GroupMemberChange } from '../patch/group-patch.js';
import { requireScimPermission, type ScimContext } from '../scim-context.js';
import { invalidValue, ScimError } from '../scim-error.js';

/** A batch judges and writes at most this many users at a time (as a bulk job's chunk does). */
const BATCH = 1_000;

/** Skips that say the user is already as asked: adding a member twice, removing a non-member. */
const ALREADY_SO = new Set(['ROLE_ALREADY_HELD', 'ROLE_NOT_HELD']);

const toIds = (values: readonly string[]) => [...new Set(values.map(Number))];

async function liveMembers(ctx: ScimContext, tx: Transaction, roleId: number): Promise<number[]> {
  const rows = await ctx.db.sequelize.query<{ id: number | string }>(
    `SELECT ur.user_id AS id FROM user_roles ur JOIN users u ON u.id = ur.user_id
      WHERE ur.role_id = :roleId AND u.deleted_at IS NULL ORDER BY ur.user_id`,
    { type: QueryTypes.SELECT, replacements: { roleId }, transaction: tx },
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Gives or takes the role for `ids` through the bulk role change's own batch: the ceiling, the
 * anti-escalation rule, the last-administrator rule, one audit row per batch and each user's
 * webhook events. A user the rules refuse fails the whole change (the transaction rolls back):
 * a SCIM PATCH is all or nothing. One already as asked is no failure: a retried PATCH succeeds.
 */
async function applyRole(
  ctx: ScimContext,
  tx: Transaction,
  roleId: number,
  operation: 'addRole' | 'removeRole',
  ids: readonly number[],
) {
  const role = await assertBulkRole(ctx, tx, roleId);
  for (let i = 0; i < ids.length; i += BATCH) {
    const outcome = await runBatch(ctx, { operation, role }, ids.slice(i, i + BATCH), tx, {
      dryRun: false,
      context: { scim: true },
    });
    const refused = outcome.skipped.find((s) => !ALREADY_SO.has(s.code));
    if (refused) {
      const status = refused.code === 'OUTRANKED' ? 403 : refused.code === 'NOT_FOUND' ? 400 : 409;
      throw status === 400
        ? invalidValue(`members: ${refused.message}`)
        : new ScimError(status, `members: user ${refused.id}: ${refused.message}`);
    }
  }
}

/**
 * Runs a group's membership changes, in order, in one transaction. Each needs the permission the
 * bulk role change needs (users.update).
 */
export async function changeMembers(ctx: ScimContext, roleId: number, changes: readonly GroupMemberChange[]) {
  if (changes.length === 0) return;
  const gives = changes.some((c) => c.op === 'add' || c.op === 'replace');
  const takes = changes.some((c) => c.op !== 'add');
  if (gives) requireScimPermission(ctx, BULK_PERMISSIONS.addRole);
  if (takes) requireScimPermission(ctx, BULK_PERMISSIONS.removeRole);
  await writeTransaction(ctx.db, async (tx) => {
    // The group changed: its lastModified and ETag move (the role's own version stays, as its
    // editor's lock is about its name and permissions).
    await ctx.db.sequelize.query('UPDATE roles SET updated_at = :now WHERE id = :roleId', {
      replacements: { now: sqlDate(ctx.db, new Date()), roleId },
      transaction: tx,
    });
    for (const change of changes) {
      if (change.op === 'add') await applyRole(ctx, tx, roleId, 'addRole', toIds(change.ids));
      else if (change.op === 'remove') await applyRole(ctx, tx, roleId, 'removeRole', toIds(change.ids));
      else {
        const current = await liveMembers(ctx, tx, roleId);
        const wanted = change.op === 'replace' ? new Set(toIds(change.ids)) : new Set<number>();
        const kept = new Set(current);
        await applyRole(
          ctx,
          tx,
          roleId,
          'removeRole',
          current.filter((id) => !wanted.has(id)),
        );
        await applyRole(
          ctx,
          tx,
          roleId,
          'addRole',
          [...wanted].filter((id) => !kept.has(id)),
        );
      }
    }
  });
}
