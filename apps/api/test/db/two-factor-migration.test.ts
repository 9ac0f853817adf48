import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: true });
  const now = new Date();
  const qi = db.sequelize.getQueryInterface();
  await qi.bulkInsert('roles', [{ name: 'staff', guard_name: 'web', created_at: now, updated_at: now }]);
  await qi.bulkInsert('users', [
    { name: 'Ann', email: 'ann@example.com', password_hash: 'x', created_at: now, updated_at: now },
  ]);
  await db.sequelize.query('INSERT INTO user_roles (user_id, role_id) SELECT u.id, r.id FROM users u, roles r');
  const session = { user_id: 1, created_at: now, last_seen_at: now, expires_at: now };
  await qi.bulkInsert('sessions', [{ id: 'a'.repeat(64), ...session }]);
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

const count = async (sql: string) =>
  Number((await db.sequelize.query<{ n: number }>(sql, { type: QueryTypes.SELECT }))[0]?.n);

describe('migration 0020: two-factor sign-in', () => {
  it('rolls back and forward again without losing a user, a membership or a session', async () => {
    const users = await count('SELECT COUNT(*) AS n FROM users');
    const memberships = await count('SELECT COUNT(*) AS n FROM user_roles');
    expect(memberships).toBeGreaterThan(0);
    await (await createMigrator(db)).down({ to: '0020-two-factor' });
    expect(await count('SELECT COUNT(*) AS n FROM users')).toBe(users);
    expect(await count('SELECT COUNT(*) AS n FROM user_roles')).toBe(memberships);
    expect(await count('SELECT COUNT(*) AS n FROM sessions')).toBe(1);
    await migrate(db);
    expect(await count('SELECT COUNT(*) AS n FROM user_roles')).toBe(memberships);
    expect(await count('SELECT COUNT(*) AS n FROM sessions WHERE second_factor IS NULL')).toBe(1);
    expect(await count('SELECT COUNT(*) AS n FROM roles WHERE require_two_factor = 0')).toBeGreaterThan(0);
  });
});
