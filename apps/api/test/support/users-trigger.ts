import { QueryTypes } from 'sequelize';
import type { Database } from '../../src/db/database.js';

/**
 * The body of the one AFTER UPDATE trigger of `users` on MariaDB (each rule a block of it), for
 * migration tests that check a migration adds its block and `down` puts the trigger back; null on
 * SQLite, where each rule is a trigger of its own.
 */
export async function usersUpdateTriggerBody(db: Database): Promise<string | null> {
  if (db.dialect !== 'mysql') return null;
  const [row] = await db.sequelize.query<{ body: string }>(
    `SELECT ACTION_STATEMENT AS body FROM information_schema.TRIGGERS
      WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = 'users_after_update'`,
    { type: QueryTypes.SELECT },
  );
  return row?.body ?? null;
}
