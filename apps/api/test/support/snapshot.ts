import { QueryTypes } from 'sequelize';
import type { Database } from '../../src/db/database.js';

const TABLES = ['users', 'user_roles', 'user_permissions', 'sessions', 'api_tokens', 'audit_logs', 'user_stats'];

/** Every row of the tables a users write can touch, for "nothing changed" assertions. */
export async function snapshot(db: Database): Promise<string> {
  const parts: Record<string, unknown> = {};
  for (const table of TABLES) {
    const order =
      table === 'user_roles' ? 'user_id, role_id' : table === 'user_permissions' ? 'user_id, permission_id' : 'id';
    parts[table] = await db.sequelize.query(`SELECT * FROM ${table} ORDER BY ${order}`, { type: QueryTypes.SELECT });
  }
  return JSON.stringify(parts);
}
