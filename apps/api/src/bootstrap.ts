import path from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { migrate, pendingMigrations } from './db/migrations/migrator.js';
import { seedAdministrator } from './seed/base.seeder.js';
import { seedDemoUsers } from './seed/demo.seeder.js';

/**
 * The database as configured. The server passes its logger (replica warnings) and limits each
 * statement; the CLI passes neither, since a migration may run for minutes.
 */
export function openConfiguredDatabase(config: AppConfig, log?: Logger): Promise<Database> {
  return openDatabase({
    url: config.DATABASE_URL,
    readUrls: config.DATABASE_READ_URLS,
    sqlitePath: path.join(config.DATA_DIR, 'app.sqlite'),
    poolMax: config.DATABASE_POOL_MAX,
    ...(log ? { statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000 } : {}),
    ...(log
      ? {
          replicaEvents: {
            down: (err: unknown) =>
              log.warn({ err }, 'a read replica cannot be reached: reads go to the primary until it answers'),
            up: () => log.info('read replicas answer again: list reads go to them'),
          },
        }
      : {}),
  });
}

async function userCount(db: Database): Promise<number> {
  return db.models.User.count({ paranoid: false });
}

/**
 * Brings the database to a usable state at start-up. The embedded database is migrated and,
 * when empty, seeded. A MySQL database is migrated only on request (MIGRATE_ON_START or the
 * CLI): production schema changes are an operator's decision, so pending ones stop the start.
 */
export async function prepareDatabase(db: Database, config: AppConfig, log: Logger): Promise<void> {
  if (db.dialect === 'sqlite' || config.MIGRATE_ON_START) {
    const applied = await migrate(db, (message) => log.info(message));
    if (applied.length) log.info({ migrations: applied }, 'database migrated');
  } else {
    const pending = await pendingMigrations(db);
    if (pending.length) {
      throw new Error(
        `The database has ${pending.length} pending migration(s): ${pending.join(', ')}. ` +
          'Run `npm run cli -- db:migrate` (or start with MIGRATE_ON_START=true).',
      );
    }
  }
  if (db.dialect !== 'sqlite') {
    if ((await userCount(db)) === 0) log.warn('The database has no users yet: run `npm run cli -- db:seed`.');
    return;
  }
  if ((await userCount(db)) > 0) return;
  const seeded = await seedAdministrator(db, {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
    adminRoleName: config.users.activation.adminRoleName,
  });
  const demo = await seedDemoUsers(db, config.DEMO_USERS);
  log.info({ admin: config.ADMIN_EMAIL, demoUsers: demo }, 'database seeded');
  if (seeded.generatedPassword) {
    // Printed once, to the terminal, never to the structured log.
    process.stdout.write(
      `\n  Administrator: ${config.ADMIN_EMAIL}\n  Password:      ${seeded.generatedPassword}\n` +
        '  (shown once; set ADMIN_PASSWORD before the first start to choose it)\n\n',
    );
  }
}
