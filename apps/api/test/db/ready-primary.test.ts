import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { createTestDatabaseTarget, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database | undefined;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  if (!target.url) return;
  // A replica nobody answers at (port 1): reads routed to it fail, the primary is fine.
  db = await openDatabase({ url: target.url, readUrls: ['mysql://root@127.0.0.1:1/nowhere'], poolMax: 2 });
});
afterAll(async () => {
  await db?.close();
  await target.drop();
});

describe('readiness with a read replica configured (MySQL/MariaDB)', () => {
  it('checks the primary, which writes need, not a replica', async (ctx) => {
    if (!db) return ctx.skip();
    await expect(db.sequelize.query('SELECT 1 AS ok', { type: QueryTypes.SELECT })).rejects.toThrow();
    expect(await db.ping()).toBe(true);
  });
});
