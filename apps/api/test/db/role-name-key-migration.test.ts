import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { sqlDate } from '../../src/db/sql-date.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/** Migration 0028 on an installation with roles: every role keyed, names untouched, the key unique. */

let target: TestDatabaseTarget;
let db: Database;

async function insertRaw(name: string) {
  const now = sqlDate(db, new Date());
  await db.sequelize.query(
    `INSERT INTO roles (name, guard_name, lock_version, created_at, updated_at) VALUES (:name, 'web', 0, :now, :now)`,
    { replacements: { name, now } },
  );
}

const rolesByName = async () =>
  db.sequelize.query<{ id: number; name: string; name_key: string | null }>(
    'SELECT id, name, name_key FROM roles ORDER BY id',
    { type: QueryTypes.SELECT },
  );

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  await migrate(db);
  await seedPermissionsAndRoles(db);
  await (await createMigrator(db)).down({ to: '0028-role-name-key' });
  // Written around the API before the migration: the old unique index allowed these.
  await insertRaw('Help Desk');
  await insertRaw('help  desk');
  await insertRaw('Sales – EMEA');
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

describe('migration 0028: role name keys', () => {
  it('keys every role, keeping its name as it was; a later role whose key is taken gets one apart', async () => {
    const rows = await rolesByName();
    const byName = new Map(rows.map((r) => [r.name, r]));
    expect([...byName.keys()]).toEqual(['admin', 'manager', 'viewer', 'Help Desk', 'help  desk', 'Sales – EMEA']);
    expect(byName.get('admin')?.name_key).toBe('admin');
    expect(byName.get('Help Desk')?.name_key).toBe('help desk');
    expect(byName.get('Sales – EMEA')?.name_key).toBe('sales – emea');
    expect(byName.get('help  desk')?.name_key).toBe(`help desk\u0001${byName.get('help  desk')?.id}`);
  });

  it('lets the unique key refuse a second role of one name, whatever writes it', async () => {
    await expect(db.models.Role.create({ name: 'HELP DESK', guard_name: 'web' })).rejects.toThrow();
    await expect(
      db.sequelize.query(`UPDATE roles SET name_key = 'help desk' WHERE name = 'Sales – EMEA'`),
    ).rejects.toThrow();
  });

  it('tells apart names the old index’s collation folded together (MariaDB: "Café" and "Cafe")', async () => {
    await db.models.Role.create({ name: 'Café', guard_name: 'web' });
    const cafe = await db.models.Role.create({ name: 'Cafe', guard_name: 'web' });
    expect(cafe.name_key).toBe('cafe');
  });

  it('goes down (once no two names the old index would fold together are left) and up again', async () => {
    // By id: MariaDB's collation would read `name IN ('Café')` as naming "Cafe" too.
    const gone = (await rolesByName()).filter((r) => r.name === 'Café' || r.name === 'help  desk').map((r) => r.id);
    await db.sequelize.query('DELETE FROM roles WHERE id IN (:gone)', { replacements: { gone } });
    await (await createMigrator(db)).down({ to: '0028-role-name-key' });
    await migrate(db);
    expect((await rolesByName()).find((r) => r.name === 'Cafe')?.name_key).toBe('cafe');
  });
});
