import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
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
  const server = process.env.TEST_MYSQL_URL as string;
  const parts = parseMysqlUrl(server);
  const name = `ua_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await mysql.createConnection({
    host: parts.host,
    port: parts.port,
    user: parts.username,
    password: parts.password,
  });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const u = new URL(server.replace(/^mariadb:/, 'mysql:'));
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    engine: 'mysql',
    env: { DATABASE_URL: url },
    url,
    drop: async () => {
      const conn = await mysql.createConnection({
        host: parts.host,
        port: parts.port,
        user: parts.username,
        password: parts.password,
      });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

export async function openTestDatabase(target: TestDatabaseTarget, { migrated = true } = {}): Promise<Database> {
  const db = await openDatabase({ url: target.url, sqlitePath: target.sqlitePath, poolMax: 5 });
  if (migrated) await migrate(db);
  return db;
}
