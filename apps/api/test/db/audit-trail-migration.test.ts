import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;

/** Events as an installation had written them before migration 0008: targets only in JSON. */
const EVENTS = 12_345;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  await migrate(db);
  // The permissions and roles of an installation from before the audit log (no audit.view yet),
  // seeded while the schema has every column the models read (roles.description came with 0015).
  await seedPermissionsAndRoles(db);
  await (await createMigrator(db)).down({ to: '0008-audit-trail' });
  await db.sequelize.query("DELETE FROM permissions WHERE name = 'audit.view'");
  await db.sequelize.query('DELETE FROM role_permissions WHERE permission_id NOT IN (SELECT id FROM permissions)');
  const now = new Date();
  const rows = Array.from({ length: EVENTS }, (_, i) => ({
    actor_id: 1,
    action: i % 100 === 0 ? 'users.bulk.delete' : 'user.update',
    target_type: 'user',
    target_ids: i % 100 === 0 ? [i + 1, i + 2, i + 3] : i % 7 === 0 ? [] : [i + 1],
    // Each event at its own time, so the copy of the time beside each target (0009) is checked.
    created_at: new Date(now.getTime() - i * 1_000),
  }));
  for (let i = 0; i < rows.length; i += 2_000) {
    await db.sequelize.getQueryInterface().bulkInsert(
      'audit_logs',
      rows.slice(i, i + 2_000).map((r) => ({ ...r, target_ids: JSON.stringify(r.target_ids) })),
    );
  }
  // An event about a role, whose id is also a user's id (1): not part of that user's history.
  await db.sequelize
    .getQueryInterface()
    .bulkInsert('audit_logs', [
      { action: 'role.create', target_type: 'role', target_ids: JSON.stringify([1]), created_at: now },
    ]);
  await migrate(db);
}, 180_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

const count = async (sql: string) =>
  Number((await db.sequelize.query<{ n: number | string }>(sql, { type: QueryTypes.SELECT }))[0]?.n);

describe('migrations 0008 (audit trail) and 0009 (target times) on an existing installation', () => {
  it('indexes the targets of every existing event, in batches, and no others', async () => {
    const perEvent = (i: number) => (i % 100 === 0 ? 3 : i % 7 === 0 ? 0 : 1);
    const expected = Array.from({ length: EVENTS }, (_, i) => perEvent(i)).reduce((a: number, b) => a + b, 0);
    expect(await count('SELECT COUNT(*) AS n FROM audit_targets')).toBe(expected);
    // The bulk event at index 500 (id 501) names users 501, 502 and 503.
    const targets = await db.sequelize.query<{ target_id: number }>(
      'SELECT target_id FROM audit_targets WHERE audit_id = 501 ORDER BY target_id',
      { type: QueryTypes.SELECT },
    );
    expect(targets.map((t) => Number(t.target_id))).toEqual([501, 502, 503]);
  });

  it('keeps users only: an event about a role leaves no target row', async () => {
    expect(
      await count(`SELECT COUNT(*) AS n FROM audit_targets t JOIN audit_logs a ON a.id = t.audit_id
                    WHERE a.action = 'role.create'`),
    ).toBe(0);
  });

  it('copies each event’s time beside each of its targets, for the history read newest first', async () => {
    expect(
      await count(`SELECT COUNT(*) AS n FROM audit_targets t JOIN audit_logs a ON a.id = t.audit_id
                    WHERE t.created_at IS NULL OR t.created_at <> a.created_at`),
    ).toBe(0);
    expect(await count('SELECT COUNT(*) AS n FROM audit_targets WHERE created_at IS NOT NULL')).toBeGreaterThan(
      EVENTS / 2,
    );
  });

  it('adds audit.view and grants it to the admin role only', async () => {
    const holders = await db.sequelize.query<{ name: string }>(
      `SELECT r.name FROM roles r JOIN role_permissions rp ON rp.role_id = r.id
         JOIN permissions p ON p.id = rp.permission_id WHERE p.name = 'audit.view'`,
      { type: QueryTypes.SELECT },
    );
    expect(holders.map((h) => h.name)).toEqual(['admin']);
  });

  it('runs down and up again', async () => {
    await (await createMigrator(db)).down({ to: '0008-audit-trail' });
    expect(await db.sequelize.getQueryInterface().tableExists('audit_targets')).toBe(false);
    await migrate(db);
    expect(await count('SELECT COUNT(*) AS n FROM audit_targets')).toBeGreaterThan(EVENTS / 2);
  });
});
