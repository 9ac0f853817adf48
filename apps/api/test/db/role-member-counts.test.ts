import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { destroyMany, updateMany } from '../../src/modules/users/users.batch-repository.js';
import { statsDelta, withStatsDeferred } from '../../src/modules/users/users.stats-deferral.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { given } from '../support/given.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * The striped member counters of migration 0015 against the truth (a COUNT over user_roles of
 * the users outside the trash), stripe by stripe, after every kind of write that moves them.
 */

let target: TestDatabaseTarget;
let db: Database;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
});
afterAll(async () => {
  await db.close();
  await target.drop();
});

type Stripes = Record<string, number>;

const select = <T extends object>(sql: string) => db.sequelize.query<T>(sql, { type: QueryTypes.SELECT });

/** `role:slot` → members, as the counters hold them (zero stripes left out). */
async function counters(): Promise<Stripes> {
  const rows = await select<{ role_id: number; slot: number; members: number }>(
    'SELECT role_id, slot, members FROM role_member_counts',
  );
  return Object.fromEntries(
    rows.filter((r) => Number(r.members) !== 0).map((r) => [`${r.role_id}:${r.slot}`, Number(r.members)]),
  );
}

/** The same, counted from the rows themselves. */
async function truth(): Promise<Stripes> {
  const rows = await select<{ role_id: number; slot: number; members: number }>(
    `SELECT ur.role_id, ur.user_id % 16 AS slot, COUNT(*) AS members
       FROM user_roles ur JOIN users u ON u.id = ur.user_id
      WHERE u.deleted_at IS NULL
      GROUP BY ur.role_id, ur.user_id % 16`,
  );
  return Object.fromEntries(rows.map((r) => [`${r.role_id}:${r.slot}`, Number(r.members)]));
}

/** Members per role as GET /roles reads them: the sum of the stripes. */
async function perRole(): Promise<Record<string, number>> {
  const rows = await select<{ role_id: number; n: number }>(
    'SELECT role_id, SUM(members) AS n FROM role_member_counts GROUP BY role_id',
  );
  return Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [String(r.role_id), Number(r.n)]));
}

async function expectExact(): Promise<void> {
  const [held, real] = await Promise.all([counters(), truth()]);
  expect(held).toEqual(real);
  // No stripe for a role that is gone, none below zero.
  const [stray] = await select<{ n: number }>(
    'SELECT COUNT(*) AS n FROM role_member_counts WHERE role_id NOT IN (SELECT id FROM roles) OR members < 0',
  );
  expect(Number(stray?.n)).toBe(0);
}

const users = () => db.models.User;

describe('role member counters (migration 0015)', () => {
  let alpha: number;
  let beta: number;
  const ids: number[] = [];
  /** The i-th user made below. */
  const id = (i: number) => ids[i] as number;

  it('count every role given, through the model and through multi-row inserts', async () => {
    const g = given(db);
    alpha = await g.role('counted-alpha', ['users.view']);
    beta = await g.role('counted-beta', ['users.view', 'users.update']);
    for (let i = 0; i < 40; i += 1) {
      const roles = i % 3 === 0 ? ['counted-alpha', 'counted-beta'] : i % 3 === 1 ? ['counted-alpha'] : ['viewer'];
      ids.push((await g.user({ roles })).id);
    }
    // The imports' way: one INSERT of many rows.
    const extra = [(await g.user()).id, (await g.user()).id, (await g.user()).id];
    ids.push(...extra);
    await db.sequelize.query(
      `INSERT INTO user_roles (user_id, role_id) VALUES ${extra.map(() => '(?, ?)').join(', ')}`,
      {
        replacements: extra.flatMap((user) => [user, beta]),
      },
    );
    await expectExact();
    expect((await perRole())[String(alpha)]).toBe(27);
    expect((await perRole())[String(beta)]).toBe(17);
  });

  it('follow a role taken from a user', async () => {
    await db.models.UserRole.destroy({ where: { user_id: id(0), role_id: alpha } });
    await db.sequelize.query('DELETE FROM user_roles WHERE role_id = :beta AND user_id IN (:some)', {
      replacements: { beta, some: ids.slice(3, 9) },
    });
    await expectExact();
  });

  it('leave out users in the trash, and count them again once restored', async () => {
    const trashed = ids.slice(10, 16);
    for (const user of trashed) await (await users().findByPk(user))?.destroy();
    await expectExact();
    // Roles given to or taken from a user in the trash move nothing.
    await db.models.UserRole.create({ user_id: id(11), role_id: beta });
    expect(await db.models.UserRole.destroy({ where: { user_id: id(10), role_id: alpha } })).toBe(1);
    await expectExact();
    // Trashing again (a new date on a trashed user) counts nothing twice.
    await db.sequelize.query('UPDATE users SET deleted_at = :now WHERE id = :id', {
      replacements: { now: new Date(), id: id(12) },
    });
    await expectExact();
    for (const user of trashed.slice(0, 3)) await (await users().findByPk(user, { paranoid: false }))?.restore();
    await expectExact();
  });

  it('drop the members erased for good, whether they were in the trash or not', async () => {
    await users().destroy({ where: { id: id(20) }, force: true });
    await users().destroy({ where: { id: id(13) }, force: true }); // still in the trash
    await expectExact();
    expect(await db.models.UserRole.count({ where: { user_id: [id(20), id(13)] } })).toBe(0);
  });

  it('go with a role that is deleted, with its grants and memberships', async () => {
    const doomed = await given(db).role('counted-doomed', ['users.view', 'users.export']);
    await db.models.UserRole.bulkCreate(ids.slice(21, 30).map((user) => ({ user_id: user, role_id: doomed })));
    await expectExact();
    await db.models.Role.destroy({ where: { id: doomed } });
    await expectExact();
    expect(await db.models.UserRole.count({ where: { role_id: doomed } })).toBe(0);
    expect(await db.models.RolePermission.count({ where: { role_id: doomed } })).toBe(0);
    expect((await perRole())[String(doomed)]).toBeUndefined();
  });

  it('stay exact through a batch write with the user stats deferred (the member triggers never stand aside)', async () => {
    const batch = ids.slice(30, 40);
    const stats = async () =>
      (await select<{ total: number; trashed: number }>('SELECT total, trashed FROM user_stats WHERE id = 1')).map(
        (r) => ({ total: Number(r.total), trashed: Number(r.trashed) }),
      )[0];
    const start = await stats();
    const alive = { is_active: true, deleted: false };
    const gone = { is_active: true, deleted: true };
    await db.sequelize.transaction(async (tx) => {
      const delta = statsDelta(batch.map(() => ({ before: alive, after: gone })));
      await withStatsDeferred(db, tx, delta, () => updateMany(db, tx, batch, { deleted_at: new Date() }));
    });
    await expectExact();
    await db.sequelize.transaction(async (tx) => {
      const back = batch.slice(0, 5);
      const delta = statsDelta(back.map(() => ({ before: gone, after: alive })));
      await withStatsDeferred(db, tx, delta, () => updateMany(db, tx, back, { deleted_at: null }));
    });
    await expectExact();
    await db.sequelize.transaction(async (tx) => {
      // Erased: five in the trash, five restored above.
      const delta = statsDelta([
        ...batch.slice(0, 5).map(() => ({ before: alive, after: null })),
        ...batch.slice(5).map(() => ({ before: gone, after: null })),
      ]);
      await withStatsDeferred(db, tx, delta, () => destroyMany(db, tx, batch));
    });
    await expectExact();
    expect(await stats()).toEqual({ total: (start?.total ?? 0) - 10, trashed: start?.trashed });
  });

  it('are filled from the existing memberships when the migration runs', async () => {
    await (await createMigrator(db)).down({ to: '0015-roles-editing' });
    const [table] = await select<{ n: number }>(
      db.dialect === 'mysql'
        ? "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'role_member_counts'"
        : "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'role_member_counts'",
    );
    expect(Number(table?.n)).toBe(0);
    // Written while the counters do not exist: the backfill must find them.
    await db.sequelize.query('DELETE FROM user_roles WHERE user_id = :id', { replacements: { id: id(1) } });
    await db.sequelize.query("UPDATE users SET deleted_at = '2024-01-01 00:00:00' WHERE id = :id", {
      replacements: { id: id(2) },
    });
    await migrate(db);
    await expectExact();
    expect(Object.keys(await counters()).length).toBeGreaterThan(0);
  });
});
