import { Op } from 'sequelize';
import type { Database } from '../../src/db/database.js';

export interface FixtureUser {
  name: string;
  email: string;
  is_active: boolean;
  created_at: string;
  deleted_at?: string | null;
  roles?: string[];
}

/** Inserts users exactly as described (names, dates, roles), returning their ids in order. */
export async function insertUsers(db: Database, users: FixtureUser[]): Promise<number[]> {
  const roles = await db.models.Role.findAll();
  const roleId = new Map(roles.map((r) => [r.name, r.id]));
  const ids: number[] = [];
  for (const u of users) {
    const row = await db.models.User.create({
      name: u.name,
      email: u.email,
      password_hash: '!',
      is_active: u.is_active,
      created_at: new Date(u.created_at),
      deleted_at: u.deleted_at ? new Date(u.deleted_at) : null,
    });
    if (u.roles?.length) {
      await db.models.UserRole.bulkCreate(u.roles.map((r) => ({ user_id: row.id, role_id: roleId.get(r) as number })));
    }
    ids.push(row.id);
  }
  return ids;
}

export async function roleIdOf(db: Database, name: string): Promise<number> {
  const role = await db.models.Role.findOne({ where: { name: { [Op.eq]: name } } });
  return role?.id as number;
}
