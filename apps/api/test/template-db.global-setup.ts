import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrations/migrator.js';
import { createMysqlDatabase } from './support/test-db.js';

/**
 * One migrated database per engine for the whole run, which each test file's database is copied
 * from (test/support/test-db.ts) instead of running every migration again: about 1.7 s a file on
 * MariaDB and 0.6 s on SQLite, for some 300 file runs. The copy is the migrator's own result (its
 * tables, rows and triggers), so a file starts from exactly what `migrate` leaves. The tests of
 * the migrations themselves still migrate an empty database (`migrated: false`).
 */
export interface TemplateDatabases {
  /** A migrated SQLite file, closed: copied as it is. */
  sqlitePath: string | null;
  /** A migrated MariaDB schema on TEST_MYSQL_URL's server: its tables, rows and triggers are copied. */
  mysqlName: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabases: TemplateDatabases;
  }
}

let made: Promise<TemplateDatabases> | null = null;

/** Vitest calls a global setup once per project (and the root): the templates are made once. */
export async function setup(project: TestProject) {
  made ??= makeTemplates();
  const templates = await made;
  project.provide('templateDatabases', templates);
  return () => dropTemplates(templates);
}

async function makeTemplates(): Promise<TemplateDatabases> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-template-'));
  const sqlitePath = path.join(dir, 'app.sqlite');
  const sqlite = await openDatabase({ sqlitePath, poolMax: 1 });
  await migrate(sqlite);
  await sqlite.close();

  const server = process.env.TEST_MYSQL_URL;
  if (!server) return { sqlitePath, mysqlName: null };
  const mysqlName = `ua_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  const created = await createMysqlDatabase(server, mysqlName);
  dropMysql = created.drop;
  const db = await openDatabase({ url: created.url, poolMax: 1 });
  await migrate(db);
  await db.close();
  return { sqlitePath, mysqlName };
}

let dropMysql: (() => Promise<void>) | null = null;
let dropped = false;

async function dropTemplates(templates: TemplateDatabases): Promise<void> {
  if (dropped) return;
  dropped = true;
  if (templates.sqlitePath) fs.rmSync(path.dirname(templates.sqlitePath), { recursive: true, force: true });
  await dropMysql?.();
}
