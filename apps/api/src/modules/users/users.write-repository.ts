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

const forUpdate = (db: Database) => (db.dialect === 'mysql' ? ' FOR UPDATE' : '');

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
 * Every holder of the admin role, locked (before any target, always in id order), and the ids of
 * those who are active and not deleted. Two transactions that could each remove an
 * administrator queue here, so the second one sees what the first one left.
 */
export async function lockActiveAdmins(
  db: Database,
  tx: Transaction,
  adminRoleId: number | null,
): Promise<Set<number>> {
  if (adminRoleId === null) return new Set();
  const rows = await db.sequelize.query<{ id: number; is_active: number | boolean; deleted_at: unknown }>(
    `SELECT u.id, u.is_active, u.deleted_at FROM users u
      WHERE u.id IN (SELECT ur.user_id FROM user_roles ur WHERE ur.role_id = :roleId)
      ORDER BY u.id${forUpdate(db)}`,
    { replacements: { roleId: adminRoleId }, type: QueryTypes.SELECT, transaction: tx },
  );
  return new Set(rows.filter((r) => Boolean(r.is_active) && r.deleted_at === null).map((r) => Number(r.id)));
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
