import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { openDatabase } from '../../src/db/database.js';
import { statsDelta, withStatsDeferred } from '../../src/modules/users/users.stats-deferral.js';
import { withRoleKeysDeferred } from '../../src/modules/users/users.role-keys-deferral.js';
import { given } from '../support/given.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;
/** One connection only: what one transaction leaves on it, the next one sees. */
let single: Database;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  single = await openDatabase({ url: target.url, sqlitePath: target.sqlitePath, poolMax: 1 });
});
afterAll(async () => {
  await single.close();
  await db.close();
  await target.drop();
});

const stats = async () =>
  (
    await db.sequelize.query<{ total: number; active: number; trashed: number }>(
      'SELECT total, active, trashed FROM user_stats WHERE id = 1',
      { type: QueryTypes.SELECT },
    )
  ).map((r) => ({ total: Number(r.total), active: Number(r.active), trashed: Number(r.trashed) }))[0];

describe('deferred stats (batch writes)', () => {
  it('nets each row from its state before to its state after', () => {
    expect(
      statsDelta([
        { before: { is_active: true, deleted: false }, after: { is_active: false, deleted: false } },
        { before: { is_active: false, deleted: false }, after: { is_active: false, deleted: true } },
        { before: { is_active: false, deleted: true }, after: null },
        { before: { is_active: true, deleted: false }, after: { is_active: true, deleted: false } },
      ]),
    ).toEqual({ total: -1, active: -1, trashed: 0 });
  });

  it('moves the counters once, and the triggers count again after a batch that failed', async () => {
    const g = given(db);
    const a = await g.user();
    const b = await g.user();
    const start = await stats();
    await expect(
      single.sequelize.transaction(async (tx) => {
        await withStatsDeferred(single, tx, { total: 0, active: -1, trashed: 0 }, async () => {
          await single.models.User.update({ is_active: false }, { where: { id: a.id }, transaction: tx });
          throw new Error('failed in the middle');
        });
      }),
    ).rejects.toThrow('failed in the middle');
    expect(await stats()).toEqual(start);
    // The same (only) connection: a plain write must be counted by the triggers.
    await single.models.User.update({ is_active: false }, { where: { id: b.id } });
    expect(await stats()).toEqual({ ...start, active: (start?.active ?? 0) - 1 });
    await single.sequelize.transaction(async (tx) => {
      await withStatsDeferred(single, tx, { total: 0, active: -1, trashed: 0 }, async () => {
        await single.models.User.update({ is_active: false }, { where: { id: a.id }, transaction: tx });
      });
    });
    expect(await stats()).toEqual({ ...start, active: (start?.active ?? 0) - 2 });
  });
});

describe('deferred role keys (batch writes)', () => {
  const keyOf = async (userId: number) =>
    (
      await db.sequelize.query<{ is_active: number | boolean }>(
        'SELECT is_active FROM user_role_keys WHERE user_id = :userId',
        { type: QueryTypes.SELECT, replacements: { userId } },
      )
    ).map((r) => Boolean(Number(r.is_active)));

  it('updates the keys of the batch after it, and the trigger keeps them again after a batch that failed', async () => {
    const g = given(db);
    const [a, b] = [await g.user(), await g.user()] as const;
    const [one, two] = await db.models.Role.bulkCreate([
      { name: 'Deferral One', guard_name: 'web' },
      { name: 'Deferral Two', guard_name: 'web' },
    ]);
    await db.models.UserRole.bulkCreate([
      { user_id: a.id, role_id: one?.id as number },
      { user_id: a.id, role_id: two?.id as number },
      { user_id: b.id, role_id: one?.id as number },
    ]);
    await expect(
      single.sequelize.transaction(async (tx) => {
        await withRoleKeysDeferred(single, tx, [a.id], async () => {
          await single.models.User.update({ is_active: false }, { where: { id: a.id }, transaction: tx });
          throw new Error('failed in the middle');
        });
      }),
    ).rejects.toThrow('failed in the middle');
    expect(await keyOf(a.id)).toEqual([true, true]);
    // The same (only) connection: a plain write must be kept by the trigger.
    await single.models.User.update({ is_active: false }, { where: { id: b.id } });
    expect(await keyOf(b.id)).toEqual([false]);
    await single.sequelize.transaction(async (tx) => {
      await withRoleKeysDeferred(single, tx, [a.id], async () => {
        await single.models.User.update({ is_active: false }, { where: { id: a.id }, transaction: tx });
      });
    });
    expect(await keyOf(a.id)).toEqual([false, false]);
  });
});
