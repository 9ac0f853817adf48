import type { QueryInterface } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Database, Dialect } from '../database.js';
import { MIGRATIONS } from './index.js';

export interface MigrationContext {
  qi: QueryInterface;
  dialect: Dialect;
}

export interface Migration {
  name: string;
  up(ctx: MigrationContext): Promise<void>;
  down(ctx: MigrationContext): Promise<void>;
}

export function createMigrator(db: Database) {
  return new Umzug<MigrationContext>({
    migrations: MIGRATIONS.map((m) => ({
      name: m.name,
      up: ({ context }) => m.up(context),
      down: ({ context }) => m.down(context),
    })),
    context: { qi: db.sequelize.getQueryInterface(), dialect: db.dialect },
    storage: new SequelizeStorage({ sequelize: db.sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(db: Database): Promise<string[]> {
  const applied = await createMigrator(db).up();
  return applied.map((m) => m.name);
}

export async function pendingMigrations(db: Database): Promise<string[]> {
  const pending = await createMigrator(db).pending();
  return pending.map((m) => m.name);
}
