import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

const EDITOR = ['roles.create', 'roles.delete', 'roles.update'];

let target: TestDatabaseTarget;
let db: Database;

/** The permission names a role grants, sorted. */
async function grantsOf(role: string): Promise<string[]> {
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT p.name FROM permissions p
       JOIN role_permissions rp ON rp.permission_id = p.id
       JOIN roles r ON r.id = rp.role_id
      WHERE r.name = :role ORDER BY p.name`,
    { replacements: { role }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  await migrate(db);
  await seedPermissionsAndRoles(db);
  await (await createMigrator(db)).down({ to: '0016-role-permissions' });
  // An installation from before the role editor: no such permissions, except roles.update,
  // created by hand and granted to the manager role.
  await db.sequelize.query(
    `DELETE FROM role_permissions WHERE permission_id IN (SELECT id FROM permissions WHERE name IN (:names))`,
    { replacements: { names: EDITOR } },
  );
  await db.sequelize.query(`DELETE FROM permissions WHERE name IN (:names)`, {
    replacements: { names: ['roles.create', 'roles.delete'] },
  });
  await db.sequelize.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM roles r JOIN permissions p ON p.name = 'roles.update' WHERE r.name = 'manager'`,
  );
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

describe('migration 0016: the role editor’s permissions on an existing installation', () => {
  it('grants roles.create, roles.update and roles.delete to the admin role', async () => {
    expect(await grantsOf('admin')).toEqual(expect.arrayContaining(EDITOR));
  });

  it('creates each permission once, keeping the one that was there', async () => {
    const rows = await db.sequelize.query<{ name: string; n: number | string }>(
      'SELECT name, COUNT(*) AS n FROM permissions WHERE name IN (:names) GROUP BY name ORDER BY name',
      { replacements: { names: EDITOR }, type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => [r.name, Number(r.n)])).toEqual(EDITOR.map((name) => [name, 1]));
  });

  it('leaves the other roles as they were', async () => {
    expect(await grantsOf('manager')).toEqual([
      'roles.update',
      'roles.view',
      'users.export',
      'users.setActive',
      'users.update',
      'users.view',
    ]);
    expect(await grantsOf('viewer')).toEqual(['roles.view', 'users.view']);
  });
});
