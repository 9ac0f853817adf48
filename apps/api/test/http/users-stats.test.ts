import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { editedBody, usersApi } from '../support/users-api.js';

let t: TestApp;
let api: ReturnType<typeof usersApi>;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  api = usersApi(t.app, await g.token((await g.user({ roles: ['admin'] })).id));
  await g.user({ roles: ['admin'] });
});
afterAll(() => t.close());

/** mulberry32: the same "random" sequence on every run, so a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function freshCount() {
  const [row] = await t.db.sequelize.query<Record<string, number | string>>(
    `SELECT SUM(CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END) AS total,
            SUM(CASE WHEN deleted_at IS NULL AND is_active = 1 THEN 1 ELSE 0 END) AS active,
            SUM(CASE WHEN deleted_at IS NOT NULL THEN 1 ELSE 0 END) AS trashed FROM users`,
    { type: QueryTypes.SELECT },
  );
  const total = Number(row?.total ?? 0);
  const active = Number(row?.active ?? 0);
  return { total, active, inactive: total - active, trashed: Number(row?.trashed ?? 0) };
}

describe('the summary counters', () => {
  it('equal a fresh COUNT after every step of a random sequence of writes', async () => {
    const rand = prng(20261122);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
    const ids: number[] = [];
    for (let step = 0; step < 120; step++) {
      const action =
        ids.length < 5
          ? 'create'
          : pick(['create', 'activate', 'deactivate', 'delete', 'restore', 'purge', 'bulk', 'rename']);
      const id = ids.length ? pick(ids) : 0;
      switch (action) {
        case 'create': {
          const res = await api.create({
            name: `Random ${step}`,
            email: `random-${step}@example.com`,
            password: 'password-123',
            password_confirmation: 'password-123',
            is_active: rand() < 0.7,
          });
          ids.push(res.json().item.id);
          break;
        }
        case 'activate':
        case 'deactivate':
          await api.setActive(id, action === 'activate');
          break;
        case 'delete':
          await api.remove(id);
          break;
        case 'restore':
          await api.bulk({ operation: 'restore', ids: [id] });
          break;
        case 'purge': {
          const res = await api.bulk({ operation: 'forceDelete', ids: [id] });
          if (res.json().affected.length) ids.splice(ids.indexOf(id), 1);
          break;
        }
        case 'bulk': {
          // Batches move the counters in one statement, not per row: any mix of states.
          const operation = pick(['setActive', 'setActive', 'delete', 'restore', 'forceDelete'] as const);
          const some = ids.filter(() => rand() < 0.5);
          const res = await api.bulk({
            operation,
            ids: some.length ? some : [id],
            ...(operation === 'setActive' ? { active: rand() < 0.5 } : {}),
          });
          if (operation === 'forceDelete') for (const gone of res.json().affected) ids.splice(ids.indexOf(gone), 1);
          break;
        }
        case 'rename':
          // Only live users can be edited; a trashed one answers 404 and changes nothing.
          if ((await api.edit(id)).statusCode === 200)
            await api.update(id, await editedBody(api, id, { name: `Renamed ${step}` }));
          break;
      }
      const stats = (await api.list('?filters[trashed]=with')).json().stats;
      expect(stats, `step ${step}: ${action} ${id}`).toEqual(await freshCount());
    }
  });
});
