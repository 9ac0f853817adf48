import { Op } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { activeAdminsInPlay, roleIdByName } from '../../src/repositories/users.locks.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { given } from '../support/given.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * The last-administrator rule sees the targeted administrators and one other when there is one.
 * For a job's chunk (many ids, dense in their span) that other one is looked for in the span,
 * then past it, then before it: wherever it is, the rule must find it, and must find none when
 * there is none.
 */
let target: TestDatabaseTarget;
let db: Database;
let adminRole: number;
const ids: number[] = [];

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
  adminRole = (await roleIdByName(db, null, 'admin')) as number;
  const g = given(db);
  for (let i = 0; i < 150; i++) ids.push((await g.user({ name: `Span Member ${i}` })).id);
  // Only the administrators each case makes count.
  await db.models.User.update({ is_active: false }, { where: { id: { [Op.notIn]: ids } } });
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

/** Makes exactly the users at `positions` active administrators. */
async function adminsAt(...positions: number[]) {
  await db.models.UserRole.destroy({ where: { role_id: adminRole, user_id: { [Op.in]: ids } } });
  await db.models.UserRole.bulkCreate(positions.map((p) => ({ user_id: ids[p] as number, role_id: adminRole })));
}

const inPlay = async (targets: number[]) =>
  [...(await activeAdminsInPlay(db, null, adminRole, targets))].sort((a, b) => a - b);

const span = (from: number, to: number) => ids.slice(from, to + 1);

describe('the administrators in play for a chunk', () => {
  it('finds the other administrator past the chunk, before it, or inside it untargeted', async () => {
    const chunk = span(10, 139);
    await adminsAt(20, 145);
    expect(await inPlay(chunk)).toEqual([ids[20], ids[145]]);
    await adminsAt(20, 5);
    expect(await inPlay(chunk)).toEqual([ids[5], ids[20]]);
    await adminsAt(20, 50);
    expect(await inPlay(chunk.filter((id) => id !== ids[50]))).toEqual([ids[20], ids[50]]);
  });

  it('finds none when the chunk holds every active administrator', async () => {
    await adminsAt(20, 30);
    expect(await inPlay(span(10, 139))).toEqual([ids[20], ids[30]]);
  });

  it('passes over inactive administrators outside the chunk', async () => {
    await adminsAt(20, 2, 146, 148);
    await db.models.User.update({ is_active: false }, { where: { id: [ids[2], ids[146]] as number[] } });
    try {
      expect(await inPlay(span(10, 139))).toEqual([ids[20], ids[148]]);
    } finally {
      await db.models.User.update({ is_active: true }, { where: { id: [ids[2], ids[146]] as number[] } });
    }
  });
});
