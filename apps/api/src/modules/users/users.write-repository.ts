import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { User } from '../../db/models/index.js';
import { chunks } from './users.batch-repository.js';

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
