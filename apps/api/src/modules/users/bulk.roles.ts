import type { BulkRoleOperation } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { BulkChange } from '../../bulk/bulk-declaration.js';
import type { Database } from '../../db/database.js';
import { chunks } from '../../repositories/chunks.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { type RoleGrant, roleRefusal, rolesBeyondActor } from '../../domain/escalation.js';
import { AppError } from '../../errors.js';
import { diff, recordChange } from '../../journal/journal.js';
import { roleNamesOf } from './users.read-repository.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerContext } from '../../context.js';

/**
 * Bulk addRole / removeRole: the role, the rows that already have (or lack) it, the writes, and
 * their record. The rules are the edit form's: the role must exist, and the caller may give or
 * take only a role whose permissions it holds (`rolesBeyondActor`, the anti-escalation rule the
 * form asks); each user meets the ceiling and, for the admin role, the last-administrator rule
 * in `runBatch`.
 */

/** The role a bulk request gives or takes, or the refusal the whole request gets (nothing is per row). */
export async function bulkRole(
  ctx: HandlerContext,
  tx: Transaction | undefined,
  roleId: number,
): Promise<RoleGrant | AppError> {
  const [role] = await loadRoleGrants(ctx.db, [roleId], tx);
  if (!role) {
    const message = `There is no role with id ${roleId}.`;
    return new AppError('VALIDATION_FAILED', message, { errors: { role_id: [message] } });
  }
  const beyond = rolesBeyondActor(ctx.actor, [role])[0];
  if (beyond) {
    const message = roleRefusal(beyond, beyond.missing);
    return new AppError('FORBIDDEN', message, {
      errors: { role_id: [message] },
      extra: { permission: beyond.missing[0] ?? '' },
    });
  }
  return role;
}

/** As `bulkRole`, thrown: the synchronous route and a job's submission refuse with it (403/422). */
export async function assertBulkRole(ctx: HandlerContext, tx: Transaction | undefined, roleId: number) {
  const role = await bulkRole(ctx, tx, roleId);
  if (role instanceof AppError) throw role;
  return role;
}

/** Which of `ids` hold the role (user_roles' primary key, a thousand ids per statement). */
export async function holdersAmong(
  db: Database,
  tx: Transaction,
  roleId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  const holders = new Set<number>();
  for (const part of chunks(ids)) {
    const rows = await db.sequelize.query<{ user_id: number | string }>(
      'SELECT user_id FROM user_roles WHERE role_id = :roleId AND user_id IN (:ids)',
      { replacements: { roleId, ids: part }, type: QueryTypes.SELECT, transaction: tx },
    );
    for (const r of rows) holders.add(Number(r.user_id));
  }
  return holders;
}

/** The role names of `ids`, read in the transaction, a thousand ids at a time. */
async function namesOf(db: Database, tx: Transaction, ids: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const part of chunks(ids)) for (const [id, names] of await roleNamesOf(db, part, tx)) out.set(id, names);
  return out;
}

/**
 * Gives the role to `ids` (none holds it) or takes it from them (each holds it), moves their
 * optimistic-lock version as the edit form's save does (an open form is then stale), and
 * records it as the form does: `user.update` with the roles before and after, so each user's
 * history and `user.updated` webhook carry the change. Users whose roles were the same before
 * share one audit row (and one event plan): a chunk costs a few rows, not one per user.
 */
export async function applyRoleChange(
  ctx: HandlerContext,
  tx: Transaction,
  change: {
    operation: BulkRoleOperation;
    role: RoleGrant;
    requested: number;
    skipped: ReadonlyArray<{ id: number; code: string }>;
  },
  ids: readonly number[],
  context: Record<string, unknown> = {},
): Promise<BulkChange[]> {
  const { db } = ctx;
  const before = await namesOf(db, tx, ids);
  for (const part of chunks(ids)) {
    if (change.operation === 'addRole') {
      await db.sequelize.query(
        `INSERT INTO user_roles (user_id, role_id) VALUES ${part.map(() => '(?, ?)').join(', ')}`,
        {
          replacements: part.flatMap((id) => [id, change.role.id]),
          transaction: tx,
        },
      );
    } else {
      await db.sequelize.query('DELETE FROM user_roles WHERE role_id = :roleId AND user_id IN (:ids)', {
        replacements: { roleId: change.role.id, ids: part },
        transaction: tx,
      });
    }
    await db.sequelize.query('UPDATE users SET lock_version = lock_version + 1, updated_at = :now WHERE id IN (:ids)', {
      replacements: { now: new Date(), ids: part },
      transaction: tx,
    });
  }
  const after = await namesOf(db, tx, ids);
  const groups = new Map<string, { before: string[]; after: string[]; ids: number[] }>();
  for (const id of ids) {
    const was = before.get(id) ?? [];
    const is = after.get(id) ?? [];
    const key = JSON.stringify([was, is]);
    const group = groups.get(key);
    if (group) group.ids.push(id);
    else groups.set(key, { before: was, after: is, ids: [id] });
  }
  // A request's change (not a job's chunk, whose job sends one summary when it ends) ends with
  // `bulk.completed`, as the other bulk operations do: its last row carries the summary.
  const summary =
    typeof context.job_id === 'number'
      ? null
      : { affected_ids: [...ids], skipped: change.skipped.map(({ id, code }) => ({ id, code })) };
  let left = groups.size;
  for (const group of groups.values()) {
    left -= 1;
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'user.update',
      targetType: 'user',
      targetIds: group.ids,
      changes: diff({ roles: group.before }, { roles: group.after }),
      context: {
        bulk: change.operation,
        role: change.role.name,
        requested: change.requested,
        ...context,
        ...(summary && left === 0 ? { bulk_summary: summary } : {}),
      },
    });
  }
  return [...groups.values()].map((g) => ({ ids: g.ids, from: { roles: g.before }, to: { roles: g.after } }));
}
