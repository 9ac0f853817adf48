import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { inject } from 'vitest';
import { type Database, openDatabase, parseMysqlUrl } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrations/migrator.js';

export type Engine = 'sqlite' | 'mysql';

export const engine = (): Engine => (process.env.TEST_DB === 'mysql' ? 'mysql' : 'sqlite');

export interface TestDatabaseTarget {
  engine: Engine;
  /** Environment that points the app or the CLI at this database. */
  env: Record<string, string>;
  sqlitePath?: string;
  url?: string;
  drop(): Promise<void>;
}

/** A brand-new, empty database for one test file: a temp SQLite file, or a fresh MySQL schema. */
export async function createTestDatabaseTarget(): Promise<TestDatabaseTarget> {
  if (engine() === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-test-'));
    return {
      engine: 'sqlite',
      env: { DATA_DIR: dir },
      sqlitePath: path.join(dir, 'app.sqlite'),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `ua_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const { url, drop } = await createMysqlDatabase(process.env.TEST_MYSQL_URL as string, name);
  return { engine: 'mysql', env: { DATABASE_URL: url }, url, drop };
}

/** A new, empty database `name` on the MariaDB server of `server` (a URL): its own URL, and its drop. */
export async function createMysqlDatabase(
  server: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const parts = parseMysqlUrl(server);
  const onServer = async (sql: string) => {
    const conn = await mysql.createConnection({
      host: parts.host,
      port: parts.port,
      user: parts.username,
      password: parts.password,
    });
    try {
      await conn.query(sql);
    } finally {
      await conn.end();
    }
  };
  await onServer(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const u = new URL(server.replace(/^mariadb:/, 'mysql:'));
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS \`${name}\``) };
}

export async function openTestDatabase(target: TestDatabaseTarget, { migrated = true } = {}): Promise<Database> {
  if (migrated) await copyTemplate(target);
  const db = await openDatabase({ url: target.url, sqlitePath: target.sqlitePath, poolMax: 5 });
  if (migrated) await migrate(db);
  return db;
}

/**
 * Fills a new, empty database with the run's migrated template (test/template-db.global-setup.ts)
 * instead of migrating it: the same tables, rows and triggers. A database already holding
 * something (opened again) is left alone, and `migrate` then finds nothing pending.
 */
async function copyTemplate(target: TestDatabaseTarget): Promise<void> {
  const templates = inject('templateDatabases');
  if (!templates) return;
  if (target.engine === 'sqlite') {
    const file = target.sqlitePath as string;
    if (templates.sqlitePath && !fs.existsSync(file)) fs.copyFileSync(templates.sqlitePath, file);
    return;
  }
  if (templates.mysqlName && target.url) await copyMysqlSchema(templates.mysqlName, target.url);
}

/**
 * Copies a schema into the empty database at `url`: each table as SHOW CREATE TABLE gives it
 * (indexes, foreign keys, AUTO_INCREMENT), its rows (the stored columns: a generated one is
 * computed again), then the triggers in their order (after the rows, which must not fire them).
 */
async function copyMysqlSchema(template: string, url: string): Promise<void> {
  const parts = parseMysqlUrl(url);
  const conn = await mysql.createConnection({
    host: parts.host,
    port: parts.port,
    user: parts.username,
    password: parts.password,
    database: parts.database,
  });
  try {
    const [existing] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE()',
    );
    if (Number(existing[0]?.n) > 0) return;
    const q = (name: string) => `\`${name.replaceAll('`', '``')}\``;
    await conn.query('SET FOREIGN_KEY_CHECKS = 0');
    const [tables] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'",
      [template],
    );
    for (const { name } of tables) {
      const [[created]] = await conn.query<mysql.RowDataPacket[]>(`SHOW CREATE TABLE ${q(template)}.${q(name)}`);
      await conn.query(String(created?.['Create Table']));
    }
    const [columns] = await conn.query<mysql.RowDataPacket[]>(
      `SELECT table_name AS name, GROUP_CONCAT(CONCAT('\`', column_name, '\`') ORDER BY ordinal_position) AS list
         FROM information_schema.columns
        WHERE table_schema = ? AND extra NOT LIKE '%GENERATED%' AND extra NOT IN ('VIRTUAL', 'STORED', 'PERSISTENT')
        GROUP BY table_name`,
      [template],
    );
    await conn.beginTransaction();
    for (const { name, list } of columns) {
      await conn.query(`INSERT INTO ${q(name)} (${list}) SELECT ${list} FROM ${q(template)}.${q(name)}`);
    }
    await conn.commit();
    const [triggers] = await conn.query<mysql.RowDataPacket[]>(
      `SELECT trigger_name AS name FROM information_schema.triggers WHERE trigger_schema = ?
        ORDER BY event_object_table, action_timing, event_manipulation, action_order`,
      [template],
    );
    for (const { name } of triggers) {
      const [[shown]] = await conn.query<mysql.RowDataPacket[]>(`SHOW CREATE TRIGGER ${q(template)}.${q(name)}`);
      await conn.query(`SET SESSION sql_mode = ?`, [shown?.sql_mode ?? '']);
      await conn.query(String(shown?.['SQL Original Statement']));
    }
  } finally {
    await conn.end();
  }
}
