import { PERMISSIONS } from '@app/contracts';
import { Op } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { engine } from '../support/test-db.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { editedBody, usersApi } from '../support/users-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('rules under concurrency', () => {
  it('two administrators deactivating each other at the same moment leave one active, 50 rounds', async () => {
    const g = given(t.db);
    const a = await g.user({ roles: ['admin'], name: 'Admin A' });
    const b = await g.user({ roles: ['admin'], name: 'Admin B' });
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 50; round++) {
      await t.db.models.User.update({ is_active: true }, { where: { id: [a.id, b.id] } });
      const [asA, asB] = [usersApi(t.app, await g.token(a.id)), usersApi(t.app, await g.token(b.id))];
      const results = await Promise.all([asA.setActive(b.id, false), asB.setActive(a.id, false)]);
      for (const res of results) {
        const key = `${res.statusCode} ${res.statusCode === 200 ? '' : res.json().code}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
      const active = await t.db.models.User.count({ where: { id: [a.id, b.id], is_active: true } });
      expect(active, `round ${round}`).toBe(1);
    }
    // Exactly one side wins each round; the loser is refused (LAST_ADMIN) or already signed out (401).
    expect(outcomes.get('200 ')).toBe(50);
    const expected = ['200 ', '422 LAST_ADMIN', '401 UNAUTHENTICATED'];
    expect([...outcomes.keys()].filter((k) => !expected.includes(k))).toEqual([]);
  });

  it('a role removal and a bulk deactivation racing through different routes leave an administrator, 30 rounds', async () => {
    const g = given(t.db);
    const a = await g.user({ roles: ['admin'], name: 'Admin C' });
    const b = await g.user({ roles: ['admin'], name: 'Admin D' });
    const adminRole = await t.db.models.Role.findOne({ where: { name: 'admin' } });
    const adminRoleId = adminRole?.id as number;
    // C and D are the only active administrators (the winner of the test above steps aside).
    await t.db.models.User.update({ is_active: false }, { where: { id: { [Op.notIn]: [a.id, b.id] } } });
    for (let round = 0; round < 30; round++) {
      await t.db.models.User.update({ is_active: true }, { where: { id: [a.id, b.id] } });
      await t.db.models.UserRole.findOrCreate({ where: { user_id: b.id, role_id: adminRoleId } });
      const [asA, asB] = [usersApi(t.app, await g.token(a.id)), usersApi(t.app, await g.token(b.id))];
      // A takes the admin role away from B while B deactivates A in a batch.
      const body = await editedBody(asA, b.id, {});
      await Promise.all([
        asA.update(b.id, { ...body, roles_ids: body.roles_ids.filter((id: number) => id !== adminRoleId) }),
        asB.bulk({ operation: 'setActive', ids: [a.id], active: false }),
      ]);
      const activeAdmins = await t.db.models.User.count({
        where: { id: [a.id, b.id], is_active: true },
        include: [{ association: 'roles', where: { id: adminRoleId }, required: true }],
      });
      expect(activeAdmins, `round ${round}`).toBeGreaterThanOrEqual(1);
    }
  });

  it.runIf(engine() === 'mysql')(
    'a user who becomes an administrator while a deactivation waits for its row is judged as one',
    async () => {
      const g = given(t.db);
      // Holding every permission, so the privilege ceiling lets it act on an administrator.
      const actor = await g.user({ permissions: [...PERMISSIONS] });
      const target = await g.user({ name: 'Soon Admin' });
      const adminRoleId = (await t.db.models.Role.findOne({ where: { name: 'admin' } }))?.id as number;
      // Nobody else is an active administrator: once the grant lands, the target is the last one.
      await t.db.models.User.update({ is_active: false }, { where: { id: { [Op.notIn]: [actor.id, target.id] } } });
      const grant = await t.db.sequelize.transaction();
      try {
        await t.db.models.User.findByPk(target.id, { lock: grant.LOCK.UPDATE, transaction: grant });
        await t.db.models.UserRole.create({ user_id: target.id, role_id: adminRoleId }, { transaction: grant });
        // The deactivation reads "not an administrator", then waits for the row the grant holds.
        const pending = usersApi(t.app, await g.token(actor.id)).setActive(target.id, false);
        await Promise.race([
          waitForLockWait(t),
          pending.then((r) => Promise.reject(new Error(`answered before the grant: ${r.statusCode} ${r.body}`))),
        ]);
        await grant.commit();
        const res = await pending;
        expect(res.statusCode).toBe(422);
        expect(res.json().code).toBe('LAST_ADMIN');
      } finally {
        await grant.rollback().catch(() => undefined);
      }
      expect((await t.db.models.User.findByPk(target.id))?.is_active).toBe(true);
    },
  );

  it('two saves of the same version: exactly one wins, the other gets 409', async () => {
    const g = given(t.db);
    const editor = usersApi(t.app, await g.token((await g.user({ roles: ['admin'] })).id));
    const target = await g.user({ name: 'Contended' });
    for (let round = 0; round < 20; round++) {
      const base = await editedBody(editor, target.id, {});
      const results = await Promise.all([
        editor.update(target.id, { ...base, name: `Left ${round}` }),
        editor.update(target.id, { ...base, name: `Right ${round}` }),
      ]);
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses, `round ${round}`).toEqual([200, 409]);
      const winner = results.find((r) => r.statusCode === 200)?.json().item.name;
      expect((await t.db.models.User.findByPk(target.id))?.name).toBe(winner);
    }
  });
});

/** Resolves once a locking read of users is in progress on the server (blocked behind a row lock). */
async function waitForLockWait(app: TestApp) {
  for (let i = 0; i < 200; i++) {
    const [rows] = await app.db.sequelize.query(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE info LIKE 'SELECT%FROM `users`%FOR UPDATE'",
    );
    if (Number((rows as Array<{ n: number }>)[0]?.n) > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no locking read of users ever waited');
}
