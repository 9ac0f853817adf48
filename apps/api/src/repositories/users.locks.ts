import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { User } from '../db/models/index.js';
import { chunks } from './chunks.js';

// The rows and the turn the rules read under lock: the users a change targets and the active
// administrators the last-administrator rule must see. Each takes the change's transaction.

/** The target rows, locked in id order (one order for every writer, so no lock cycles), deleted ones included. */
export async function lockUsers(db: Database, tx: Transaction, ids: readonly number[]): Promise<Map<number, User>> {
  const found = new Map<number, User>();
  for (const part of chunks([...ids].sort((a, b) => a - b))) {
    const rows = await db.models.User.findAll({
      where: { id: { [Op.in]: part } },
      order: [['id', 'ASC']],
      paranoid: false,
      lock: tx.LOCK.UPDATE,
      transaction: tx,
    });
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

export async function roleIdByName(db: Database, tx: Transaction | null, name: string): Promise<number | null> {
  // A plain statement: every list page asks, and a model finder costs more than the read.
  const [role] = await db.sequelize.query<{ id: number | string }>('SELECT id FROM roles WHERE name = :name LIMIT 1', {
    replacements: { name },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return role ? Number(role.id) : null;
}

/**
 * Takes the turn of the changes that could take an administrator away (rules 2 and 4): each such
 * transaction locks this one row before its targets, so they run one after another and each
 * one's check reads what the previous one left. One row lock, whatever the number of
 * administrators. On SQLite, BEGIN IMMEDIATE already runs every writer in turn.
 */
export async function lockAdministratorChanges(db: Database, tx: Transaction): Promise<void> {
  if (db.dialect !== 'mysql') return;
  await db.sequelize.query("SELECT name FROM write_locks WHERE name = 'administrators' FOR UPDATE", {
    type: QueryTypes.SELECT,
    transaction: tx,
  });
}

// By role id, not joined by name: joined, MariaDB sorts all 40 000 holders (at a million users)
// before the LIMIT instead of reading (role_id, user_id) in order — measured 0.5–0.8 s.
const ACTIVE_ADMINS = `SELECT ur.user_id AS id FROM user_roles ur JOIN users u ON u.id = ur.user_id
  WHERE ur.role_id = :roleId AND u.is_active = 1 AND u.deleted_at IS NULL`;

/**
 * The active administrators the rules must see to judge changes to `targetIds` (read after
 * `lockAdministratorChanges` and after the targets are locked): those among the targets, plus
 * one other when there is one. That is enough to tell whether an administrator would remain,
 * without reading every holder of the role.
 */
export async function activeAdminsInPlay(
  db: Database,
  tx: Transaction | null,
  adminRoleId: number | null,
  targetIds: readonly number[],
  alreadyGone = 0,
): Promise<Set<number>> {
  if (adminRoleId === null) return new Set();
  if (alreadyGone > 0) return adminsInPlayAfter(db, tx, adminRoleId, targetIds, alreadyGone);
  if (targetIds.length <= FEW_TARGETS) return fewAdminsInPlay(db, tx, ':roleId', { roleId: adminRoleId }, targetIds);
  const { targeted: inPlay, otherInSpan, span } = await activeAdminsAmong(db, tx, adminRoleId, targetIds);
  const other = otherInSpan ?? (span ? await adminOutside(db, tx, adminRoleId, span) : null);
  if (other !== null) {
    inPlay.add(other);
    return inPlay;
  }
  if (span) return inPlay;
  // Scattered ids: the first n+1 active administrators hold at least one that is not among the n targeted.
  const first = await db.sequelize.query<{ id: number }>(`${ACTIVE_ADMINS} ORDER BY ur.user_id LIMIT :n`, {
    replacements: { roleId: adminRoleId, n: inPlay.size + 1 },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  const firstOther = first.map((r) => Number(r.id)).find((id) => !inPlay.has(id));
  if (firstOther !== undefined) inPlay.add(firstOther);
  return inPlay;
}

/**
 * An active administrator outside `span`: the first after it, else the last before it — one index
 * probe each way. Not the first of all: a job walking the users in id order deactivates the
 * administrators before it, and reading past them from the start grew with every chunk (its last
 * chunks read some 40 000 role rows each, at a million users).
 */
async function adminOutside(
  db: Database,
  tx: Transaction | null,
  adminRoleId: number,
  span: { low: number; high: number },
): Promise<number | null> {
  for (const [where, order] of [
    ['ur.user_id > :high', 'ASC'],
    ['ur.user_id < :low', 'DESC'],
  ] as const) {
    const [row] = await db.sequelize.query<{ id: number }>(
      `${ACTIVE_ADMINS} AND ${where} ORDER BY ur.user_id ${order} LIMIT 1`,
      { replacements: { roleId: adminRoleId, ...span }, type: QueryTypes.SELECT, transaction: tx },
    );
    if (row) return Number(row.id);
  }
  return null;
}

/**
 * The active administrators among `targetIds`. Ids dense in their span (a job's chunk, a page of
 * the list in id order) are read as that span of the role's index and filtered here: one range
 * instead of id lists sent a thousand at a time, which at a 10 000-user chunk cost more than the
 * rest of its reads. Scattered ids are read by list.
 */
async function activeAdminsAmong(
  db: Database,
  tx: Transaction | null,
  adminRoleId: number,
  targetIds: readonly number[],
): Promise<{
  targeted: Set<number>;
  /** Read as a span: an active administrator in it that is not targeted, if any. */
  otherInSpan: number | null;
  span: { low: number; high: number } | null;
}> {
  const targeted = new Set<number>();
  if (targetIds.length === 0) return { targeted, otherInSpan: null, span: null };
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const id of targetIds) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  if (high - low + 1 <= targetIds.length * DENSE_SPAN) {
    const rows = await db.sequelize.query<{ id: number }>(`${ACTIVE_ADMINS} AND ur.user_id BETWEEN :low AND :high`, {
      replacements: { roleId: adminRoleId, low, high },
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    // The span's administrators are a handful and the targets up to a chunk: the targets are
    // looked up among the administrators, not put in a set of their own. Over the 82 chunks of
    // a dry run over 820 000 users, the sets cost 54–55 ms alone, the lookups 10–17 ms.
    const admins = new Set(rows.map((r) => Number(r.id)));
    if (admins.size > 0) for (const id of targetIds) if (admins.has(id)) targeted.add(id);
    const otherInSpan = [...admins].find((id) => !targeted.has(id)) ?? null;
    return { targeted, otherInSpan, span: { low, high } };
  }
  for (const part of chunks(targetIds)) {
    const rows = await db.sequelize.query<{ id: number }>(`${ACTIVE_ADMINS} AND ur.user_id IN (:ids)`, {
      replacements: { roleId: adminRoleId, ids: part },
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    for (const r of rows) targeted.add(Number(r.id));
  }
  return { targeted, otherInSpan: null, span: null };
}

/** How sparse a span of ids may be (span ÷ ids) and still be read as a range. */
const DENSE_SPAN = 4;

/** The id that stands for "another active administrator remains" when which one is not known. */
export const ANOTHER_ADMIN = 0;

/**
 * `activeAdminsInPlay` for a batch judged as if `alreadyGone` administrators outside it had been
 * taken away already (a dry run's earlier chunks, which changed nothing, in id order before this
 * batch): another administrator remains when the active ones number more than those gone and
 * those targeted.
 */
async function adminsInPlayAfter(
  db: Database,
  tx: Transaction | null,
  adminRoleId: number,
  targetIds: readonly number[],
  alreadyGone: number,
): Promise<Set<number>> {
  const { targeted: inPlay, otherInSpan } = await activeAdminsAmong(db, tx, adminRoleId, targetIds);
  if (otherInSpan !== null) {
    inPlay.add(otherInSpan);
    return inPlay;
  }
  // Batches go in id order, so those gone have smaller ids than this batch: an active one past
  // it is neither gone nor targeted (one index probe). Only near the end is a count needed.
  const last = targetIds.reduce((a, b) => Math.max(a, b), 0);
  const [past] = await db.sequelize.query<{ id: number }>(
    `${ACTIVE_ADMINS} AND ur.user_id > :last ORDER BY ur.user_id LIMIT 1`,
    { replacements: { roleId: adminRoleId, last }, type: QueryTypes.SELECT, transaction: tx },
  );
  if (past) {
    inPlay.add(Number(past.id));
    return inPlay;
  }
  const [count] = await db.sequelize.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM (${ACTIVE_ADMINS}) AS admins`,
    { replacements: { roleId: adminRoleId }, type: QueryTypes.SELECT, transaction: tx },
  );
  if (Number(count?.n ?? 0) - alreadyGone - inPlay.size > 0) inPlay.add(ANOTHER_ADMIN);
  return inPlay;
}

/** Up to a list page of targets: both reads of `activeAdminsInPlay` in one statement. */
const FEW_TARGETS = 100;

/**
 * `activeAdminsInPlay` of the role named `adminRole` (its id read in the same statement, for a
 * read outside a transaction that has not looked the role up already: a list page's actions).
 */
export async function activeAdminsOfRoleInPlay(
  db: Database,
  adminRole: string,
  targetIds: readonly number[],
): Promise<Set<number>> {
  if (targetIds.length > FEW_TARGETS)
    return activeAdminsInPlay(db, null, await roleIdByName(db, null, adminRole), targetIds);
  return fewAdminsInPlay(db, null, '(SELECT id FROM roles WHERE name = :roleName)', { roleName: adminRole }, targetIds);
}

/**
 * `activeAdminsInPlay` for a few targets in one round trip: the targeted administrators, and the
 * first n+1 of all (n = the targets), whose smallest not targeted is the smallest there is.
 */
async function fewAdminsInPlay(
  db: Database,
  tx: Transaction | null,
  roleSql: string,
  role: { roleId: number } | { roleName: string },
  targetIds: readonly number[],
): Promise<Set<number>> {
  const admins = ACTIVE_ADMINS.replace(':roleId', roleSql);
  const first = `SELECT id, 0 AS targeted FROM (${admins} ORDER BY ur.user_id LIMIT :n) AS first_admins`;
  const sql = targetIds.length
    ? `SELECT id, 1 AS targeted FROM (${admins} AND ur.user_id IN (:ids)) AS among_targets UNION ALL ${first}`
    : first;
  const rows = await db.sequelize.query<{ id: number | string; targeted: number | string }>(sql, {
    replacements: { ...role, ids: [...targetIds], n: targetIds.length + 1 },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  const inPlay = new Set(rows.filter((r) => Number(r.targeted) === 1).map((r) => Number(r.id)));
  const others = rows.map((r) => Number(r.id)).filter((id) => !inPlay.has(id));
  if (others.length) inPlay.add(Math.min(...others));
  return inPlay;
}

/** Whether the user holds the role (a plain read: under the user's row lock, it cannot change). */
export async function holdsRole(db: Database, tx: Transaction, userId: number, role: string): Promise<boolean> {
  // Joined by name: one primary-key lookup, no separate query for the role's id.
  const rows = await db.sequelize.query(
    'SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id AND r.name = :role WHERE ur.user_id = :userId',
    {
      replacements: { role, userId },
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  return rows.length > 0;
}
