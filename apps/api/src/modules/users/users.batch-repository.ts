import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { AuthMethod } from '../../auth/actor.js';
import { voidLinks } from '../../auth/user-links.js';
import { chunks } from '../../repositories/chunks.js';
import type { Target } from '../../domain/users.rules.js';
import { type DeferredBlock, withTriggersDeferred } from '../../db/trigger-deferral.js';
import { enumKeysBlock } from './users.enum-keys-deferral.js';
import { holderStateBlock } from './users.holder-state-deferral.js';
import { roleKeysBlock } from './users.role-keys-deferral.js';

/**
 * Statements over many users at once (bulk, and the single routes that share them), written as
 * SQL with bound id lists rather than through the models: at 10 000 ids, cloning the options,
 * building the WHERE and creating the instances cost the API about 100 ms of CPU per batch, time
 * in which every other request waits for the event loop.
 */

const NO_PERMISSIONS: ReadonlySet<string> = new Set();

/** Row locks where the engine has them (SQLite serialises writers instead). */
export const forUpdate = (db: Database) => (db.dialect === 'mysql' ? ' FOR UPDATE' : '');

/** What the rules read of a user row (not the permissions it holds: see `permissionsBeyond`). */
export const TARGET_COLUMNS = ['id', 'name', 'is_active', 'deleted_at'] as const;
export type TargetRow = { id: number | string; name: string; is_active: unknown; deleted_at: unknown };

/** Rows as the rules judge them, by id; each holds no permission until `permissionsBeyond` says so. */
export function targetsOf(rows: readonly TargetRow[], into = new Map<number, Target>()): Map<number, Target> {
  for (const r of rows) {
    const id = Number(r.id);
    into.set(id, targetOf(id, r));
  }
  return into;
}

/** One row as the rules judge it (its id given apart: a row read through a join names it otherwise). */
export const targetOf = (id: number, r: Omit<TargetRow, 'id'>): Target => ({
  id,
  name: r.name,
  is_active: Boolean(Number(r.is_active)),
  deleted: r.deleted_at !== null,
  permissions: NO_PERMISSIONS,
});

/**
 * The rows a batch judges, locked in id order (one order for every writer, so no lock cycles),
 * deleted ones included; what the rules need of each but the permissions they hold (see
 * `permissionsBeyond`, which only an actor lacking some needs), and each row's optimistic-lock
 * version (an undo leaves alone a user changed since its job).
 */
export async function lockTargetsWithVersions(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
): Promise<{ targets: Map<number, Target>; versions: Map<number, number> }> {
  const targets = new Map<number, Target>();
  const versions = new Map<number, number>();
  for (const part of chunks([...ids].sort((a, b) => a - b))) {
    const rows = await db.sequelize.query<TargetRow & { lock_version: number | string }>(
      `SELECT ${TARGET_COLUMNS.join(', ')}, lock_version FROM users WHERE id IN (:ids) ORDER BY id${forUpdate(db)}`,
      { replacements: { ids: part }, type: QueryTypes.SELECT, transaction: tx },
    );
    targetsOf(rows, targets);
    for (const r of rows) versions.set(Number(r.id), Number(r.lock_version));
  }
  return { targets, versions };
}

/** `lockTargetsWithVersions` without the versions. */
export async function lockTargets(db: Database, tx: Transaction, ids: readonly number[]): Promise<Map<number, Target>> {
  return (await lockTargetsWithVersions(db, tx, ids)).targets;
}

/**
 * The trigger blocks a batch write of users' status (`set: 'is_active'`) or trash dates
 * (`'deleted_at'`, the status with it or not) defers, each catching up after the batch for
 * exactly `ids`: the role keys, the enumeration keys and, for a trash change, the values' holder
 * state (a status change leaves that alone: its block only compares).
 */
export function userStateBlocks(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  set: 'is_active' | 'deleted_at',
): DeferredBlock[] {
  const blocks = [enumKeysBlock(db, tx, ids, set), roleKeysBlock(db, tx, ids)];
  if (set === 'deleted_at') blocks.push(holderStateBlock(db, tx, ids));
  return blocks;
}

/** Sets the status or the trash date of many users, bumping their optimistic-lock counter. */
export async function updateMany(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  values: { is_active: boolean } | { deleted_at: Date | null },
): Promise<void> {
  const [set, value]: ['is_active', number] | ['deleted_at', Date | null] =
    'is_active' in values ? ['is_active', values.is_active ? 1 : 0] : ['deleted_at', values.deleted_at];
  for (const part of chunks(ids)) {
    const write = async () => {
      await db.sequelize.query(
        `UPDATE users SET ${set} = :value, lock_version = lock_version + 1, updated_at = :now WHERE id IN (:ids)`,
        { replacements: { value, now: new Date(), ids: part }, transaction: tx },
      );
    };
    await withTriggersDeferred(db, tx, userStateBlocks(db, tx, part, set), write);
  }
}

/** Erases users for good (their roles, permissions, sessions and tokens go by cascade). */
export async function destroyMany(db: Database, tx: Transaction, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids)) {
    await db.sequelize.query('DELETE FROM users WHERE id IN (:ids)', { replacements: { ids: part }, transaction: tx });
  }
}

/**
 * Ends every session and token of these users, and voids the links mailed to them (an invitation,
 * a reset): deactivated or deleted accounts lose access at once, and cannot get it back by mail.
 */
export async function revokeCredentials(db: Database, tx: Transaction, userIds: readonly number[]): Promise<void> {
  await voidLinks(db, tx, userIds);
  for (const part of chunks(userIds)) {
    await db.sequelize.query('DELETE FROM sessions WHERE user_id IN (:ids)', {
      replacements: { ids: part },
      transaction: tx,
    });
    await db.sequelize.query('DELETE FROM api_tokens WHERE user_id IN (:ids)', {
      replacements: { ids: part },
      transaction: tx,
    });
  }
}

/**
 * After a password change: ends every session and token of the user except `keep`, the credential
 * of the request that made the change when users change their own password. Returns how many
 * went, for the audit row.
 */
export async function revokeOtherCredentials(
  db: Database,
  tx: Transaction,
  userId: number,
  keep: AuthMethod | null,
): Promise<{ sessionsEnded: number; tokensRevoked: number }> {
  const sessionsEnded = await db.models.Session.destroy({
    where: { user_id: userId, ...(keep?.via === 'session' ? { id: { [Op.ne]: keep.sessionId } } : {}) },
    transaction: tx,
  });
  const tokensRevoked = await db.models.ApiToken.destroy({
    where: { user_id: userId, ...(keep?.via === 'token' ? { id: { [Op.ne]: keep.tokenId } } : {}) },
    transaction: tx,
  });
  // A link mailed before the change (an invitation, a reset) would set the password again.
  await voidLinks(db, tx, [userId]);
  return { sessionsEnded, tokensRevoked };
}
