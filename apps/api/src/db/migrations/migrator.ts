import { QueryTypes } from 'sequelize';
import type { Database } from '../database.js';
import { MIGRATIONS } from './index.js';
import type { MigrationContext } from './migration.js';

const MIGRATIONS_TABLE = 'schema_migrations';

/** Umzug is loaded only when something is pending: it weighs ~20 MB of RSS a running API never needs again. */
export async function createMigrator(db: Database, progress?: (message: string) => void) {
  const { SequelizeStorage, Umzug } = await import('umzug');
  return new Umzug<MigrationContext>({
    migrations: MIGRATIONS.map((m) => ({
      name: m.name,
      up: ({ context }) => m.up(context),
      down: ({ context }) => m.down(context),
    })),
    context: { qi: db.sequelize.getQueryInterface(), dialect: db.dialect, ...(progress ? { progress } : {}) },
    storage: new SequelizeStorage({ sequelize: db.sequelize, tableName: MIGRATIONS_TABLE }),
    logger: undefined,
  });
}

/** The migrations not yet recorded as applied (umzug's own table, read directly). */
export async function pendingMigrations(db: Database): Promise<string[]> {
  if (!(await db.sequelize.getQueryInterface().tableExists(MIGRATIONS_TABLE))) return MIGRATIONS.map((m) => m.name);
  const rows = await db.sequelize.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE}`, {
    type: QueryTypes.SELECT,
  });
  const applied = new Set(rows.map((r) => r.name));
  return MIGRATIONS.map((m) => m.name).filter((name) => !applied.has(name));
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(db: Database, progress?: (message: string) => void): Promise<string[]> {
  if ((await pendingMigrations(db)).length === 0) return [];
  const applied = await (await createMigrator(db, progress)).up();
  return applied.map((m) => m.name);
}
