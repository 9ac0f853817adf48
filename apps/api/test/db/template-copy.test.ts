import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrations/migrator.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

// Every test file's database is a copy of the run's migrated template (test/template-db.global-setup.ts):
// the copy must be exactly what the migrations leave, or every other file would test another schema.

const opened: Array<{ db: Database; target: TestDatabaseTarget }> = [];
let copied: Database;
let migrated: Database;

async function open(asCopy: boolean): Promise<Database> {
  const target = await createTestDatabaseTarget();
  const db = await openTestDatabase(target, { migrated: asCopy });
  if (!asCopy) await migrate(db);
  opened.push({ db, target });
  return db;
}

beforeAll(async () => {
  copied = await open(true);
  migrated = await open(false);
});
afterAll(async () => {
  for (const { db, target } of opened) {
    await db.close();
    await target.drop();
  }
});

const rows = <T extends object>(db: Database, sql: string) => db.sequelize.query<T>(sql, { type: QueryTypes.SELECT });

/** Every table, column, index, foreign key and trigger, in a form two databases can be compared by. */
async function schemaOf(db: Database): Promise<unknown> {
  if (db.dialect === 'sqlite') {
    return rows(
      db,
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    );
  }
  const here = 'table_schema = DATABASE()';
  return {
    columns: await rows(
      db,
      `SELECT table_name, column_name, ordinal_position, column_default, is_nullable, column_type, collation_name, extra, generation_expression
         FROM information_schema.columns WHERE ${here} ORDER BY table_name, ordinal_position`,
    ),
    indexes: await rows(
      db,
      `SELECT table_name, index_name, seq_in_index, column_name, non_unique, sub_part
         FROM information_schema.statistics WHERE ${here} ORDER BY table_name, index_name, seq_in_index`,
    ),
    foreignKeys: await rows(
      db,
      `SELECT k.table_name, k.constraint_name, k.column_name, k.referenced_table_name, k.referenced_column_name, r.delete_rule, r.update_rule
         FROM information_schema.key_column_usage k
         JOIN information_schema.referential_constraints r
           ON r.constraint_schema = k.constraint_schema AND r.constraint_name = k.constraint_name
        WHERE k.${here} ORDER BY k.table_name, k.constraint_name, k.ordinal_position`,
    ),
    triggers: await rows(
      db,
      `SELECT trigger_name, event_object_table, action_timing, event_manipulation, action_order, action_statement, sql_mode
         FROM information_schema.triggers WHERE trigger_schema = DATABASE() ORDER BY trigger_name`,
    ),
    engines: await rows(
      db,
      `SELECT table_name, engine, table_collation FROM information_schema.tables WHERE ${here} ORDER BY table_name`,
    ),
  };
}

/** What the migrations write besides the schema (the applied list, counters, helper rows), table by table. */
async function contentsOf(db: Database): Promise<Record<string, unknown>> {
  const names =
    db.dialect === 'sqlite'
      ? await rows<{ name: string }>(
          db,
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'user_search%' ORDER BY name",
        )
      : await rows<{ name: string }>(
          db,
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name",
        );
  const out: Record<string, unknown> = {};
  for (const { name } of names) {
    const all = await rows<Record<string, unknown>>(db, `SELECT * FROM ${name}`);
    // When a migration ran is the one thing two runs of it cannot share.
    out[name] = all.map(({ date: _date, created_at: _created, updated_at: _updated, ...rest }) => rest);
  }
  return out;
}

describe('a test file’s database, copied from the run’s migrated template', () => {
  it('has the schema the migrations build: tables, columns, indexes, foreign keys and triggers', async () => {
    const schema = await schemaOf(copied);
    // Not two empty answers: the list keys' triggers and the users' e-mail index are there.
    expect(JSON.stringify(schema)).toContain('user_role_keys_grant');
    expect(JSON.stringify(schema)).toContain('users_email_unique');
    expect(schema).toEqual(await schemaOf(migrated));
  });

  it('holds the rows the migrations write', async () => {
    const contents = await contentsOf(copied);
    expect(Object.keys(contents).length).toBeGreaterThan(10);
    expect(contents).toEqual(await contentsOf(migrated));
  });

  it('runs the triggers: a user written into it is counted and found by the search index', async () => {
    for (const db of [copied, migrated]) {
      await db.sequelize.query(
        "INSERT INTO users (name, email, password_hash, is_active, lock_version, created_at, updated_at) VALUES ('Template Test', 'template.test@example.com', '!', 1, 0, '2026-01-01 00:00:00', '2026-01-01 00:00:00')",
      );
    }
    const stats = (db: Database) => rows(db, 'SELECT total, active, trashed FROM user_stats');
    expect(await stats(copied)).toEqual(await stats(migrated));
    expect(await stats(copied)).toEqual([{ total: 1, active: 1, trashed: 0 }]);
  });
});
