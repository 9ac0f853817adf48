import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/**
 * More writers at once than node-sqlite3 has pool threads (4): on SQLite each used to wait for
 * the write lock on a pool thread, starving the one holding it until a waiter's 10 s busy
 * timeout ended — 12 status changes took 25 s. They queue in the process now (transaction.ts).
 */
describe('concurrent writes', () => {
  it('all succeed within seconds, not tens of seconds, when twelve administrators act at once', async () => {
    const g = given(t.db);
    const admin = await g.user({ roles: ['admin'] });
    const api = usersApi(t.app, await g.token(admin.id));
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await g.user({ roles: ['viewer'] })).id);
    for (const active of [false, true, false]) {
      const started = Date.now();
      const statuses = await Promise.all(ids.map(async (id) => (await api.setActive(id, active)).statusCode));
      expect(statuses).toEqual(ids.map(() => 200));
      // Generous for a loaded 2-core CI machine; the stall this guards against took 25 s.
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    const rows = await t.db.models.User.findAll({ where: { id: ids } });
    expect(rows.map((u) => Boolean(u.is_active))).toEqual(ids.map(() => false));
  });
});
