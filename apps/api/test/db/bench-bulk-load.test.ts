import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, bulkSeedUsers, type ConnectionSettings, connect, connectionSettings } from '../../bench/seed.js';
import { seedAdministrator } from '../../src/seed/base.seeder.js';
import { createTestDatabaseTarget, engine, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * The bench seeds ten million users in bulk: triggers dropped, `users` and `user_roles` loaded
 * into empty tables, the tables the triggers keep rebuilt from them in one pass each
 * (bench/bulk-load.ts). Whatever the lists read must come out as the triggers would have written
 * it, user by user: one database is seeded in bulk, the other one user in bulk and the rest
 * through the triggers, and every table is compared row for row.
 */
const USERS = 1_500;

interface Seeded {
  target: TestDatabaseTarget;
  settings: ConnectionSettings;
}

async function seeded(steps: readonly number[]): Promise<Seeded> {
  const target = await createTestDatabaseTarget();
  const db = await openTestDatabase(target);
  try {
    await seedAdministrator(db, {
      adminEmail: ADMIN_EMAIL,
      adminPassword: 'a-strong-password',
      adminRoleName: 'admin',
    });
  } finally {
    await db.close();
  }
  const settings = connectionSettings(target.url as string);
  for (const count of steps) await bulkSeedUsers(settings, count, () => undefined);
  return { target, settings };
}

// The administrator (id 1 in each) was created at a different moment in each database: the
// comparisons of creation dates leave it out.
let bulk: Seeded;
let byTriggers: Seeded;
let fresh: Seeded;
let conn: mysql.Connection;

/** Rows of `select` (over `{db}`) found in one database and not the other, both ways. */
async function difference(select: string, on: string): Promise<number> {
  const a = bulk.settings.database;
  const b = byTriggers.settings.database;
  const missing = (x: string, y: string) =>
    `SELECT COUNT(*) AS n FROM (${select.replaceAll('{db}', x)}) AS l
      WHERE NOT EXISTS (SELECT 1 FROM (${select.replaceAll('{db}', y)}) AS r WHERE ${on})`;
  const [[one]] = (await conn.query(missing(a, b))) as unknown as [[{ n: number }]];
  const [[other]] = (await conn.query(missing(b, a))) as unknown as [[{ n: number }]];
  return Number(one.n) + Number(other.n);
}

async function count(database: string, table: string): Promise<number> {
  const [[row]] = (await conn.query(`SELECT COUNT(*) AS n FROM \`${database}\`.${table}`)) as unknown as [
    [{ n: number }],
  ];
  return Number(row.n);
}

async function triggers(database: string): Promise<string[]> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    `SELECT CONCAT_WS(' ', EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER, TRIGGER_NAME, SQL_MODE,
                      ACTION_STATEMENT) AS t
       FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY t`,
    [database],
  );
  return rows.map((r) => String(r.t));
}

/** A table's columns, indexes and keys, as SHOW CREATE TABLE gives them (its next id left out). */
async function tableDefinition(database: string, table: string): Promise<string> {
  const [[shown]] = (await conn.query(`SHOW CREATE TABLE \`${database}\`.${table}`)) as unknown as [
    [Record<string, string>],
  ];
  return String(shown['Create Table']).replace(/ AUTO_INCREMENT=\d+/, '');
}

describe.skipIf(engine() !== 'mysql')('the bench seed in bulk (MySQL)', () => {
  beforeAll(async () => {
    [bulk, byTriggers, fresh] = await Promise.all([seeded([USERS]), seeded([1, USERS - 1]), seeded([])]);
    conn = await connect(bulk.settings);
  });
  afterAll(async () => {
    await conn?.end();
    await Promise.all([bulk, byTriggers, fresh].map((s) => s?.target.drop()));
  });

  it('writes the same users and roles as the seed through the triggers', async () => {
    expect(await count(bulk.settings.database, 'users')).toBe(USERS + 1);
    expect(
      await difference(
        'SELECT id, CAST(name AS BINARY) AS name, email, is_active, created_at, deleted_at FROM `{db}`.users WHERE id > 1',
        'l.id = r.id AND l.name = r.name AND l.email = r.email AND l.is_active = r.is_active AND l.created_at = r.created_at AND l.deleted_at <=> r.deleted_at',
      ),
    ).toBe(0);
    expect(await count(bulk.settings.database, 'user_roles')).toBeGreaterThan(USERS / 2);
    expect(
      await difference(
        'SELECT user_id, role_id FROM `{db}`.user_roles',
        'l.user_id = r.user_id AND l.role_id = r.role_id',
      ),
    ).toBe(0);
  });

  it('rebuilds the search grams, the list keys per role, the member counts and the counters as the triggers keep them', async () => {
    expect(await count(bulk.settings.database, 'user_search_grams')).toBeGreaterThan(USERS * 20);
    expect(await count(bulk.settings.database, 'user_search_grams')).toBe(
      await count(byTriggers.settings.database, 'user_search_grams'),
    );
    // The gram as the search compares it (the collation), not one spelling of it.
    expect(
      await difference(
        'SELECT gram, user_id FROM `{db}`.user_search_grams',
        'l.gram = r.gram AND l.user_id = r.user_id',
      ),
    ).toBe(0);
    expect(await count(bulk.settings.database, 'user_role_keys')).toBe(
      await count(bulk.settings.database, 'user_roles'),
    );
    expect(
      await difference(
        'SELECT user_id, role_id, deleted_at, is_active, created_at, CAST(name AS BINARY) AS name FROM `{db}`.user_role_keys WHERE user_id > 1',
        'l.user_id = r.user_id AND l.role_id = r.role_id AND l.deleted_at <=> r.deleted_at AND l.is_active = r.is_active AND l.created_at = r.created_at AND l.name = r.name',
      ),
    ).toBe(0);
    expect(
      await difference(
        'SELECT role_id, slot, members FROM `{db}`.role_member_counts WHERE members <> 0',
        'l.role_id = r.role_id AND l.slot = r.slot AND l.members = r.members',
      ),
    ).toBe(0);
    expect(
      await difference(
        'SELECT total, active, trashed FROM `{db}`.user_stats',
        'l.total = r.total AND l.active = r.active AND l.trashed = r.trashed',
      ),
    ).toBe(0);
    const [[stats]] = (await conn.query('SELECT total, active, trashed FROM user_stats WHERE id = 1')) as unknown as [
      [{ total: number; active: number; trashed: number }],
    ];
    const [[truth]] = (await conn.query(
      'SELECT SUM(deleted_at IS NULL) AS total, SUM(deleted_at IS NULL AND is_active = 1) AS active, SUM(deleted_at IS NOT NULL) AS trashed FROM users',
    )) as unknown as [[{ total: number; active: number; trashed: number }]];
    expect([stats.total, stats.active, stats.trashed].map(Number)).toEqual(
      [truth.total, truth.active, truth.trashed].map(Number),
    );
  });

  it('puts every trigger and index back as it was, and the triggers keep the tables from then on', async () => {
    const expected = await triggers(fresh.settings.database);
    expect(expected.length).toBeGreaterThan(10);
    expect(await triggers(bulk.settings.database)).toEqual(expected);
    expect(await triggers(byTriggers.settings.database)).toEqual(expected);
    // The seed through the triggers ran after a bulk load: its users' grams are compared above.
    for (const table of ['users', 'user_roles', 'user_role_keys', 'user_search_grams']) {
      expect(await tableDefinition(bulk.settings.database, table)).toBe(
        await tableDefinition(fresh.settings.database, table),
      );
    }
  });
});
