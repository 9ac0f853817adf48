import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { MAY_READ_REPLICA } from '../../src/db/replica-routing.js';
import { createTestDatabaseTarget, type TestDatabaseTarget } from '../support/test-db.js';

// In-process checks of the routing; the scale-out bed (cluster/) proves it with a real replica.
let target: TestDatabaseTarget;
let gone: Database | undefined;
let same: Database | undefined;
const events: string[] = [];

interface Pools {
  read: { size: number };
  write: { size: number };
}
const poolsOf = (db: Database) =>
  (db.sequelize as unknown as { connectionManager: { pool: Pools } }).connectionManager.pool;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  if (!target.url) return;
  // A replica nobody answers at (port 1).
  gone = await openDatabase({
    url: target.url,
    readUrls: ['mysql://root@127.0.0.1:1/nowhere'],
    poolMax: 2,
    replicaEvents: { down: () => events.push('down'), up: () => events.push('up') },
  });
  // The primary itself named as a replica: a replica that answers.
  same = await openDatabase({ url: target.url, readUrls: [target.url], poolMax: 2 });
});
afterAll(async () => {
  await gone?.close();
  await same?.close();
  await target.drop();
});

describe('reads with a read replica configured (MySQL/MariaDB)', () => {
  it('sends reads to the primary unless they may read a replica', async (ctx) => {
    if (!same) return ctx.skip();
    await same.sequelize.query('SELECT 1 AS ok', { type: QueryTypes.SELECT });
    expect(poolsOf(same).read.size).toBe(0);
    await same.sequelize.query('SELECT 1 AS ok', { type: QueryTypes.SELECT, ...MAY_READ_REPLICA });
    expect(poolsOf(same).read.size).toBe(1);
    expect(await same.checkReplicas()).toEqual([
      { name: `127.0.0.1:${new URL(target.url as string).port || 3306}`, ok: true },
    ]);
  });

  it('answers from the primary when the replica cannot be reached, and says so once', async (ctx) => {
    if (!gone) return ctx.skip();
    for (let n = 0; n < 3; n++) {
      const rows = await gone.sequelize.query('SELECT 1 AS ok', { type: QueryTypes.SELECT, ...MAY_READ_REPLICA });
      expect(rows).toEqual([{ ok: 1 }]);
    }
    expect(events).toEqual(['down']);
    expect(await gone.ping()).toBe(true);
    expect(await gone.checkReplicas()).toEqual([{ name: '127.0.0.1:1', ok: false }]);
  });
});
