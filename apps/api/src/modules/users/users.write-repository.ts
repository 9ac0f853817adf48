import { Op, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';

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
