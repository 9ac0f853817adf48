import { QueryTypes } from 'sequelize';
import { UNUSABLE_PASSWORD } from '../auth/password.js';
import type { Database } from '../db/database.js';
import { demoUser } from './demo-data.js';

const CHUNK = 2_000;

/**
 * Inserts `count` deterministic demo users (after any existing ones) with their roles, in
 * chunks inside transactions: fast enough for a million rows. Demo accounts cannot log in:
 * their password hash matches nothing until an operator sets one (`user:set-password`).
 */
export async function seedDemoUsers(db: Database, count: number, onProgress?: (done: number) => void): Promise<number> {
  if (count <= 0) return 0;
  const { sequelize } = db;
  const qi = sequelize.getQueryInterface();
  const roles = await sequelize.query<{ id: number; name: string }>('SELECT id, name FROM roles', {
    type: QueryTypes.SELECT,
  });
  const roleId = new Map(roles.map((r) => [r.name, Number(r.id)]));
  const [{ maxId, existing }] = (await sequelize.query<{ maxId: number | null; existing: number }>(
    'SELECT MAX(id) AS maxId, COUNT(*) AS existing FROM users',
    { type: QueryTypes.SELECT },
  )) as [{ maxId: number | null; existing: number }];
  let nextId = Number(maxId ?? 0) + 1;
  // Demo indices continue after earlier demo rows so e-mails stay unique across runs.
  const offset = Number(existing);

  for (let start = 0; start < count; start += CHUNK) {
    const size = Math.min(CHUNK, count - start);
    const users: Record<string, unknown>[] = [];
    const links: Record<string, unknown>[] = [];
    for (let k = 0; k < size; k++) {
      const demo = demoUser(offset + start + k);
      const id = nextId++;
      users.push({
        id,
        name: demo.name,
        email: demo.email,
        password_hash: UNUSABLE_PASSWORD,
        is_active: demo.is_active,
        lock_version: 0,
        created_at: demo.created_at,
        updated_at: demo.deleted_at ?? demo.created_at,
        deleted_at: demo.deleted_at,
      });
      for (const role of demo.roles) {
        const rid = roleId.get(role);
        if (rid) links.push({ user_id: id, role_id: rid });
      }
    }
    await sequelize.transaction(async (transaction) => {
      await qi.bulkInsert('users', users, { transaction });
      if (links.length) await qi.bulkInsert('user_roles', links, { transaction });
    });
    onProgress?.(start + size);
  }
  return count;
}
