import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type AppConfig, loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import type { RequestActivity } from '../../src/request-activity.js';
import { buildApp } from '../../src/server.js';
import { captureAudit, captureResponses, flushCaptures, scanLogger } from './secret-capture.js';
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

/**
 * `buildApp` for tests: silent unless the test brings its own logger, and, when the secret scan
 * is on (SECRET_SCAN_DIR), every answer and log line written down for it. Call `ready()` after.
 */
export async function buildTestApp(deps: {
  config: AppConfig;
  db: Database;
  logger?: Logger;
  activity?: RequestActivity;
}) {
  const app = await buildApp({ ...deps, logger: scanLogger(deps.logger) });
  captureResponses(app);
  return app;
}

/** A fully wired app on a fresh, migrated database with permissions and roles seeded. */
export async function startTestApp(env: Record<string, string> = {}, logger?: Logger): Promise<TestApp> {
  const target = await createTestDatabaseTarget();
  const db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
  const config = testConfig(target, env);
  const app = await buildTestApp({ config, db, ...(logger ? { logger } : {}) });
  await app.ready();
  return {
    app,
    db,
    config,
    target,
    async close() {
      await flushCaptures();
      await captureAudit(db);
      await app.close();
      await db.close().catch(() => undefined);
      await target.drop();
    },
  };
}
