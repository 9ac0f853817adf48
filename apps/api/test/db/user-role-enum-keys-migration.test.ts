import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { given } from '../support/given.js';
import { usersUpdateTriggerBody } from '../support/users-trigger.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * Migration 0036 on an installation holding enumeration values before it: the keys of live
 * holders are built for each of their roles (none for deleted users, for users without a role,
 * or for other types), every attribute is marked ready, the triggers keep them from then on, and
 * down and up again give the same.
 */

let target: TestDatabaseTarget;
let db: Database;
const MIGRATION = '0036-user-role-enum-keys';

const keys = async () =>
  (
    await db.sequelize.query<Record<string, unknown>>(
      'SELECT user_id, attribute_id, role_id, text_value, is_active FROM user_role_enum_keys ORDER BY user_id, role_id',
      { type: QueryTypes.SELECT },
    )
  ).map((r) => [Number(r.user_id), Number(r.role_id), String(r.text_value), Number(r.is_active)]);

let users: number[] = [];
const role: Record<string, number> = {};
let triggerBefore: string | null = null;
const triggerBody = () => usersUpdateTriggerBody(db);

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  await migrate(db);
  await seedPermissionsAndRoles(db);
  await (await createMigrator(db)).down({ to: MIGRATION });
  triggerBefore = await triggerBody();
  for (const r of await db.models.Role.findAll()) role[r.name] = r.id;
  // Six users: a deleted one, an inactive one, one without a role, one with two.
  const g = given(db);
  const shapes = [
    { roles: ['manager'] },
    { roles: ['manager'], deleted: true },
    { roles: ['viewer'], active: false },
    { roles: [] },
    { roles: ['manager', 'viewer'] },
    { roles: ['viewer'] },
  ] as const;
  users = [];
  for (const shape of shapes) users.push((await g.user({ ...shape, roles: [...shape.roles] })).id);
  const now = new Date();
  for (const [key, type] of [
    ['team', 'enum'],
    ['desk', 'string'],
  ] as const) {
    await db.sequelize.query(
      `INSERT INTO attributes (\`key\`, label, type, enum_values, validators, sensitivity, created_at, updated_at)
       VALUES (:key, :key, :type, :values, '{}', 'none', :now, :now)`,
      { replacements: { key, type, values: type === 'enum' ? '["Red","Blue"]' : null, now } },
    );
  }
  const ids = Object.fromEntries(
    (
      await db.sequelize.query<{ id: number; key: string }>('SELECT id, `key` FROM attributes', {
        type: QueryTypes.SELECT,
      })
    ).map((r) => [r.key, Number(r.id)]),
  );
  const rows = users.flatMap((id, i) => [
    [ids.team, id, i % 2 ? 'Red' : 'Blue', null, null],
    [ids.desk, id, `D${i}`, null, null],
  ]);
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

describe('migration 0036: the list keys per role and enumeration value', () => {
  it('builds the keys of live holders of an enumeration, one per role, and marks every attribute ready', async () => {
    const [a, , c, , e, f] = users as [number, number, number, number, number, number];
    expect(await keys()).toEqual([
      [a, role.manager, 'Blue', 1],
      [c, role.viewer, 'Blue', 0],
      [e, role.manager, 'Blue', 1],
      [e, role.viewer, 'Blue', 1],
      [f, role.viewer, 'Red', 1],
    ]);
    const flags = await db.sequelize.query<{ r: unknown }>('SELECT enum_keys_ready AS r FROM attributes', {
      type: QueryTypes.SELECT,
    });
    expect(flags.map((x) => Number(x.r))).toEqual([1, 1]);
  });

  it('adds its block to the users update trigger and keeps every earlier block as it was', async () => {
    if (db.dialect === 'sqlite') {
      const triggers = await db.sequelize.query<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'users' AND sql LIKE '%user_role_enum_keys%' ORDER BY name",
        { type: QueryTypes.SELECT },
      );
      expect(triggers.map((t) => t.name)).toEqual([
        'user_role_enum_keys_restore',
        'user_role_enum_keys_status',
        'user_role_enum_keys_trash',
      ]);
      return;
    }
    const after = String(await triggerBody());
    const keep = String(triggerBefore).replace(/\s*END$/, '');
    expect(after.startsWith(keep)).toBe(true);
    expect(after.slice(keep.length)).toMatch(/IF @user_role_enum_keys_deferred IS NULL THEN/);
  });

  it('keeps the keys from then on, and goes down and up again to the same', async () => {
    const [a, b, c] = users as [number, number, number];
    await db.sequelize.query('UPDATE users SET deleted_at = NULL WHERE id = :id', { replacements: { id: b } });
    await db.sequelize.query('UPDATE users SET is_active = 1 WHERE id = :id', { replacements: { id: c } });
    await db.sequelize.query('UPDATE users SET deleted_at = created_at WHERE id = :id', { replacements: { id: a } });
    const kept = await keys();
    expect(kept.filter(([user]) => user === a)).toEqual([]);
    expect(kept.filter(([user]) => user === b)).toEqual([[b, role.manager, 'Red', 1]]);
    expect(kept.filter(([user]) => user === c)).toEqual([[c, role.viewer, 'Blue', 1]]);

    await (await createMigrator(db)).down({ to: MIGRATION });
    expect(await triggerBody()).toBe(triggerBefore);
    await migrate(db);
    expect(await keys()).toEqual(kept);
  });
});
