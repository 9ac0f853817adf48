import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { type AppConfig, loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { seedPermissionsAndRoles } from '../../src/db/seeders/base.seeder.js';
import { buildApp } from '../../src/server.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from './test-db.js';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: AppConfig;
  target: TestDatabaseTarget;
  close(): Promise<void>;
}

export function testConfig(target: TestDatabaseTarget, env: Record<string, string> = {}): AppConfig {
  return loadConfig({ LOG_LEVEL: 'silent', DEMO_USERS: '0', WEB_DIST_DIR: '/nonexistent', ...target.env, ...env });
}

/** A fully wired app on a fresh, migrated database with permissions and roles seeded. */
export async function startTestApp(
  env: Record<string, string> = {},
  logger: Logger = pino({ level: 'silent' }),
): Promise<TestApp> {
  const target = await createTestDatabaseTarget();
  const db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
  const config = testConfig(target, env);
  const app = await buildApp({ config, db, logger });
  await app.ready();
  return {
    app,
    db,
    config,
    target,
    async close() {
      await app.close();
      await db.close().catch(() => undefined);
      await target.drop();
    },
  };
}
