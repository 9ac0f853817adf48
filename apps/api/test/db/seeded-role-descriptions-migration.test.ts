import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/** Migration 0033 on an installation seeded before it: the seeded roles described, an administrator's words kept. */

let target: TestDatabaseTarget;
let db: Database;

const ADMIN_WORDS =
  'Every permission, including those added in later versions. This role cannot be renamed or deleted.';
const VIEWER_WORDS = 'Reads only: sees users and roles, and changes nothing.';

const roles = async () =>
  Object.fromEntries(
    (
      await db.sequelize.query<{ name: string; description: string | null; lock_version: number }>(
        'SELECT name, description, lock_version FROM roles ORDER BY id',
        { type: QueryTypes.SELECT },
      )
    ).map((r) => [r.name, { description: r.description, version: Number(r.lock_version) }]),
  );

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  await migrate(db);
  await seedPermissionsAndRoles(db);
  // As the roles were before: seeded without a description; one administrator wrote their own
  // for manager, another left viewer's blank, and a role of their own has none.
  await (await createMigrator(db)).down({ to: '0033-seeded-role-descriptions' });
  await db.sequelize.query(`UPDATE roles SET description = 'Our shift leads.' WHERE name = 'manager'`);
  await db.sequelize.query(`UPDATE roles SET description = '  ' WHERE name = 'viewer'`);
  await db.models.Role.create({ name: 'auditor', guard_name: 'web' });
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

describe('migration 0033: seeded role descriptions', () => {
  it('describes the seeded roles that had no description, and keeps an administrator’s words', async () => {
    const after = await roles();
    expect(after.admin?.description).toBe(ADMIN_WORDS);
    expect(after.viewer?.description).toBe(VIEWER_WORDS);
    expect(after.manager).toEqual({ description: 'Our shift leads.', version: 0 });
    expect(after.auditor?.description).toBeNull();
    // A described role's version moves on: an editor opened before meets the new words as a change.
    expect(after.admin?.version).toBe(1);
  });

  it('goes down taking back only its own words, and up again', async () => {
    await (await createMigrator(db)).down({ to: '0033-seeded-role-descriptions' });
    const down = await roles();
    expect(down.admin?.description).toBeNull();
    expect(down.manager?.description).toBe('Our shift leads.');
    await migrate(db);
    expect((await roles()).admin?.description).toBe(ADMIN_WORDS);
  });
});
