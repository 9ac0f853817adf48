import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { given } from '../support/given.js';
import { usersUpdateTriggerBody } from '../support/users-trigger.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * Migration 0035 on an installation holding values before it: the values of users deleted then
 * are marked, the live ones are not, and from then on the trigger keeps the flag; down and up
 * again give the same.
 */

let target: TestDatabaseTarget;
let db: Database;
const MIGRATION = '0035-attribute-holder-state';

const flags = async () =>
  Object.fromEntries(
    (
      await db.sequelize.query<{ user_id: number; live: number; want: number }>(
        `SELECT v.user_id, MIN(v.user_live) AS live,
                MIN(CASE WHEN u.deleted_at IS NULL THEN 1 ELSE 0 END) AS want
           FROM user_attribute_values v JOIN users u ON u.id = v.user_id GROUP BY v.user_id ORDER BY v.user_id`,
        { type: QueryTypes.SELECT },
      )
    ).map((r) => [Number(r.user_id), { live: Number(r.live), want: Number(r.want) }]),
  );

const indexColumns = async (name: string): Promise<string[]> => {
  if (db.dialect === 'mysql') {
    const rows = await db.sequelize.query<{ Column_name: string }>(
      `SHOW INDEX FROM user_attribute_values WHERE Key_name = '${name}'`,
      { type: QueryTypes.SELECT },
    );
    return rows.map((r) => r.Column_name);
  }
  const rows = await db.sequelize.query<{ name: string }>(`PRAGMA index_info('${name}')`, { type: QueryTypes.SELECT });
  return rows.map((r) => r.name);
};

let users: number[] = [];
/** The users update trigger's body as migration 0034 left it (MariaDB: one trigger holds every block). */
let triggerBefore: string | null = null;
const triggerBody = () => usersUpdateTriggerBody(db);

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  await migrate(db);
  await seedPermissionsAndRoles(db);
  await (await createMigrator(db)).down({ to: MIGRATION });
  triggerBefore = await triggerBody();
  // Values held by six users, two of them deleted before the migration.
  const g = given(db);
  users = [];
  for (let i = 0; i < 6; i++) users.push((await g.user({ deleted: i % 3 === 1 })).id);
  await db.sequelize.query(
    `INSERT INTO attributes (\`key\`, label, type, validators, sensitivity, created_at, updated_at)
     VALUES ('team', 'Team', 'string', '{}', 'none', :now, :now)`,
    { replacements: { now: new Date() } },
  );
  const [row] = await db.sequelize.query<{ id: number }>("SELECT id FROM attributes WHERE `key` = 'team'", {
    type: QueryTypes.SELECT,
  });
  const rows = users.flatMap((id, i) => [[row?.id, id, i % 2 ? 'Red' : 'Blue', null, null]]);
  await db.sequelize.query(
    'INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value, unique_value) VALUES :rows',
    { replacements: { rows } },
  );
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

describe('migration 0035: the holder’s trash state on attribute values', () => {
  it('marks the values of users deleted before it, and only those', async () => {
    const after = await flags();
    expect(Object.values(after).map((f) => f.live)).toEqual([1, 0, 1, 1, 0, 1]);
    for (const f of Object.values(after)) expect(f.live).toBe(f.want);
  });

  it('adds its block to the users update trigger and keeps every earlier block as it was (SQLite: a trigger of its own)', async () => {
    if (db.dialect === 'sqlite') {
      const triggers = await db.sequelize.query<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'users' AND sql LIKE '%user_live%'",
        { type: QueryTypes.SELECT },
      );
      expect(triggers.map((t) => t.name)).toEqual(['user_attribute_values_holder']);
      return;
    }
    const after = String(await triggerBody());
    const keep = String(triggerBefore).replace(/\s*END$/, '');
    expect(after.startsWith(keep)).toBe(true);
    expect(after.slice(keep.length)).toMatch(
      /UPDATE user_attribute_values SET user_live = \(NEW\.deleted_at IS NULL\)/,
    );
  });

  it('carries the state after the value in both value indexes', async () => {
    expect(await indexColumns('user_attribute_values_text')).toEqual(['attribute_id', 'text_value', 'user_live']);
    expect(await indexColumns('user_attribute_values_number')).toEqual(['attribute_id', 'number_value', 'user_live']);
  });

  it('keeps the flag from then on, and goes down and up again to the same', async () => {
    await db.sequelize.query('UPDATE users SET deleted_at = NULL WHERE id = :id', { replacements: { id: users[1] } });
    await db.sequelize.query('UPDATE users SET deleted_at = created_at WHERE id = :id', {
      replacements: { id: users[2] },
    });
    const kept = await flags();
    for (const f of Object.values(kept)) expect(f.live).toBe(f.want);
    expect(kept[users[1] as number]?.live).toBe(1);
    expect(kept[users[2] as number]?.live).toBe(0);

    await (await createMigrator(db)).down({ to: MIGRATION });
    expect(await indexColumns('user_attribute_values_text')).toEqual(['attribute_id', 'text_value']);
    // The trigger goes back exactly as 0034 left it.
    expect(await triggerBody()).toBe(triggerBefore);
    await migrate(db);
    expect(await flags()).toEqual(kept);
  });
});
