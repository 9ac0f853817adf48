import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { User } from '../../db/models/index.js';

/** MySQL bounds placeholders per statement; ids go in one IN() per 1 000. */
const CHUNK = 1_000;

export function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

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

export async function roleIdByName(db: Database, tx: Transaction, name: string): Promise<number | null> {
  const role = await db.models.Role.findOne({ attributes: ['id'], where: { name }, transaction: tx });
  return role?.id ?? null;
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
  tx: Transaction,
  adminRoleId: number | null,
  targetIds: readonly number[],
): Promise<Set<number>> {
  if (adminRoleId === null) return new Set();
  const inPlay = new Set<number>();
  for (const part of chunks(targetIds)) {
    const rows = await db.sequelize.query<{ id: number }>(`${ACTIVE_ADMINS} AND ur.user_id IN (:ids)`, {
      replacements: { roleId: adminRoleId, ids: part },
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    for (const r of rows) inPlay.add(Number(r.id));
  }
  // The first n+1 active administrators hold at least one that is not among the n targeted.
  const first = await db.sequelize.query<{ id: number }>(`${ACTIVE_ADMINS} ORDER BY ur.user_id LIMIT :n`, {
    replacements: { roleId: adminRoleId, n: inPlay.size + 1 },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  const other = first.map((r) => Number(r.id)).find((id) => !inPlay.has(id));
  if (other !== undefined) inPlay.add(other);
  return inPlay;
}

export async function roleIdsOf(db: Database, tx: Transaction, userId: number): Promise<number[]> {
  const rows = await db.models.UserRole.findAll({ where: { user_id: userId }, transaction: tx, raw: true });
  return rows.map((r) => Number(r.role_id)).sort((a, b) => a - b);
}

export async function replaceRoles(db: Database, tx: Transaction, userId: number, add: number[], remove: number[]) {
  if (remove.length)
    await db.models.UserRole.destroy({ where: { user_id: userId, role_id: { [Op.in]: remove } }, transaction: tx });
  if (add.length)
    await db.models.UserRole.bulkCreate(
      add.map((role_id) => ({ user_id: userId, role_id })),
      { transaction: tx },
    );
}

/** Sets columns on many users at once (chunked), bumping their optimistic-lock counter. */
export async function updateMany(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  values: { is_active?: boolean; deleted_at?: Date | null },
): Promise<void> {
  for (const part of chunks(ids)) {
    await db.models.User.update(
      { ...values, lock_version: db.sequelize.literal('lock_version + 1') as unknown as number },
      { where: { id: { [Op.in]: part } }, paranoid: false, transaction: tx, silent: false },
    );
  }
}

export async function destroyMany(db: Database, tx: Transaction, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids)) {
    await db.models.User.destroy({ where: { id: { [Op.in]: part } }, force: true, transaction: tx });
  }
}

/** Ends every session and token of these users: deactivated or deleted accounts lose access at once. */
export async function revokeCredentials(db: Database, tx: Transaction, userIds: readonly number[]): Promise<void> {
  for (const part of chunks(userIds)) {
    await db.models.Session.destroy({ where: { user_id: { [Op.in]: part } }, transaction: tx });
    await db.models.ApiToken.destroy({ where: { user_id: { [Op.in]: part } }, transaction: tx });
  }
}

/** Role ids among `ids` that do not exist. */
export async function unknownRoleIds(db: Database, tx: Transaction, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.models.Role.findAll({
    attributes: ['id'],
    where: { id: { [Op.in]: [...ids] } },
    transaction: tx,
  });
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}
