import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { isDatabaseUnreachable } from '../../src/db/unavailable.js';
import { createTestDatabaseTarget, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database | undefined;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  if (!target.url) return;
  db = await openDatabase({ url: target.url, poolMax: 1, statementTimeoutMs: 500 });
});
afterAll(async () => {
  await db?.close();
  await target.drop();
});

describe('a statement that gets no answer in time (MySQL/MariaDB)', () => {
  it('fails as "database unreachable" after the limit, and the pool goes on with a fresh connection', async (ctx) => {
    if (!db) return ctx.skip();
    const started = Date.now();
    const error = await db.sequelize.query('SELECT SLEEP(3) AS slept', { type: QueryTypes.SELECT }).catch((e) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(isDatabaseUnreachable(error)).toBe(true);
    // One connection in the pool: the timed-out one was destroyed, not handed out again with the
    // late answer of SLEEP(3) still to come.
    const rows = await db.sequelize.query('SELECT 7 AS n', { type: QueryTypes.SELECT });
    expect(rows).toEqual([{ n: 7 }]);
  });

  it('limits statements inside a transaction too, and the transaction is rolled back', async (ctx) => {
    if (!db) return ctx.skip();
    const live = db;
    await live.sequelize.query('CREATE TABLE t_limit (id INT PRIMARY KEY)');
    const attempt = live.sequelize.transaction(async (transaction) => {
      await live.sequelize.query('INSERT INTO t_limit VALUES (1)', { transaction });
      await live.sequelize.query('SELECT SLEEP(3)', { transaction });
    });
    expect(isDatabaseUnreachable(await attempt.catch((e) => e))).toBe(true);
    const rows = await live.sequelize.query('SELECT COUNT(*) AS n FROM t_limit', { type: QueryTypes.SELECT });
    expect(rows).toEqual([{ n: 0 }]);
  });
});
