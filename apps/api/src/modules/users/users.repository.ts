import { Op, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { User } from '../../db/models/index.js';

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  isActive: boolean;
}

/** Case-insensitive on both engines (NOCASE column on SQLite, _ci collation on MySQL); deleted users count. */
export async function emailTaken(
  db: Database,
  tx: Transaction | null,
  email: string,
  exceptId?: number,
): Promise<boolean> {
  const found = await db.models.User.findOne({
    attributes: ['id'],
    where: { email, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) },
    paranoid: false,
    transaction: tx,
  });
  return found !== null;
}

export async function insertUser(db: Database, tx: Transaction, data: NewUser, roleIds: number[] = []): Promise<User> {
  const user = await db.models.User.create(
    { name: data.name, email: data.email, password_hash: data.passwordHash, is_active: data.isActive },
    { transaction: tx },
  );
  if (roleIds.length) {
    await db.models.UserRole.bulkCreate(
      roleIds.map((role_id) => ({ user_id: user.id, role_id })),
      { transaction: tx },
    );
  }
  return user;
}

export async function findByEmail(db: Database, tx: Transaction | null, email: string): Promise<User | null> {
  return db.models.User.findOne({ where: { email }, paranoid: false, transaction: tx });
}
