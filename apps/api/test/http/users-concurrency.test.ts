import { Op } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
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
    expect([...outcomes.keys()].every((k) => ['200 ', '422 LAST_ADMIN', '401 UNAUTHENTICATED'].includes(k))).toBe(true);
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
