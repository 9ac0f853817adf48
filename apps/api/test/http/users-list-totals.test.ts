import { LIST_COUNT_BOUND, usersListQuery } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idWalkHints, rangeReadHints, usersWhere } from '../../src/modules/users/users.list-query.js';
import { readStats } from '../../src/modules/users/users.read-repository.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Honest totals: a narrowed list counts only up to LIST_COUNT_BOUND matches; past it `total` is
 * a lower bound (`totalExact: false`). Unnarrowed views stay exact from the counters, and
 * "select all matching" and exports still cover every match.
 */
const MANY = LIST_COUNT_BOUND + 50;
/** Users created in April 2001 (a narrow date range among users created today). */
const SPRING = 7;
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  token = await g.token((await g.user({ roles: ['admin'], name: 'Totals Admin' })).id);
  const rows = Array.from({ length: MANY }, (_, i) => ({
    name: `Crowd Member ${i}`,
    email: `crowd${i}@totals.example`,
    password_hash: '!',
    is_active: i % 2 === 0,
  }));
  for (let i = 0; i < rows.length; i += 1_000) await t.db.models.User.bulkCreate(rows.slice(i, i + 1_000));
  await t.db.models.User.bulkCreate([
    { name: 'Lone Wolf', email: 'lone@wolf.example', password_hash: '!', is_active: true },
  ]);
  // A few users in one old month, among the ten thousand created today.
  await t.db.models.User.bulkCreate(
    ['Mara', 'Abel', 'Zeno', 'Ines', 'Bert', 'Olga', 'Carl'].map((first, i) => ({
      name: `${first} Spring`,
      email: `spring${i}@totals.example`,
      password_hash: '!',
      is_active: true,
      created_at: new Date(Date.UTC(2001, 3, 1 + i, 12)),
    })),
  );
}, 120_000);
afterAll(() => t.close());

const list = (query: string) => request(t.app, { token }).get(`/api/users?${query}`);

describe('list totals', () => {
  it('stays exact for a narrowed list with few matches', async () => {
    const { meta } = (await list('q=wolf')).json();
    expect(meta).toEqual({ page: 1, perPage: 10, total: 1, totalExact: true, pageCount: 1 });
  });

  // Every user was created just now: this range holds them all, and only a count can tell.
  const everyone = 'filters[created_between][from]=2000-01-01';

  it('gives a lower bound past the bound, with the pages it can show', async () => {
    const { meta, rows } = (await list(everyone)).json();
    expect(meta).toEqual({ page: 1, perPage: 10, total: LIST_COUNT_BOUND, totalExact: false, pageCount: 1_000 });
    expect(rows).toHaveLength(10);
  });

  it('never reports less than the rows up to the page asked for', async () => {
    const { meta, rows } = (await list(`${everyone}&page=1004`)).json();
    expect(rows).toHaveLength(10);
    expect(meta).toMatchObject({ total: 10_040, totalExact: false, pageCount: 1_004 });
  });

  it('counts a search exactly past the bound when the index has few enough candidates to check', async () => {
    const { meta, rows } = (await list('q=crowd')).json();
    expect(rows).toHaveLength(10);
    expect(meta).toMatchObject({ total: MANY, totalExact: true, pageCount: Math.ceil(MANY / 10) });
    // A term too short for the index is counted by the scan, up to the bound.
    expect((await list('q=cr')).json().meta).toMatchObject({ total: LIST_COUNT_BOUND, totalExact: false });
  });

  it('keeps unnarrowed and status-only views exact, from the counters', async () => {
    const all = (await list('')).json().meta;
    expect(all).toMatchObject({ total: MANY + 2 + SPRING, totalExact: true });
    const active = (await list('filters[is_active]=active')).json().meta;
    expect(active).toMatchObject({ total: MANY / 2 + 2 + SPRING, totalExact: true });
  });

  it('still selects and exports every match', async () => {
    const selected = (await request(t.app, { token }).get('/api/users/selected?q=crowd&limit=10000')).json();
    expect(selected).toMatchObject({ total: MANY, truncated: true });
    const csv = await request(t.app, { token }).get('/api/users/export?format=json&q=crowd&columns[]=id');
    expect(csv.json()).toHaveLength(MANY);
  });

  it('says so through tRPC too', async () => {
    const input = encodeURIComponent(JSON.stringify({ filters: { created_between: { from: '2000-01-01' } } }));
    const res = await request(t.app, { token }).get(`/api/trpc/users.list?input=${input}`);
    expect(res.json().result.data.meta).toMatchObject({ total: LIST_COUNT_BOUND, totalExact: false });
  });

  const april = 'filters[created_between][from]=2001-04-01&filters[created_between][to]=2001-04-30';

  it('pages a narrow date range sorted by name in order, past the first page too', async () => {
    const names: string[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const { rows, meta } = (await list(`${april}&sort=name&dir=asc&perPage=2&page=${page}`)).json();
      expect(meta).toMatchObject({ total: 7, totalExact: true, pageCount: 4 });
      names.push(...rows.map((r: { name: string }) => r.name));
    }
    expect(names).toEqual(['Abel', 'Bert', 'Carl', 'Ines', 'Mara', 'Olga', 'Zeno'].map((n) => `${n} Spring`));
  });

  it("reads a narrow date range through the creation-date index on a deep page, a wide one walking the sort's index", async () => {
    // What the list's count found for each: 7 exactly, and the bound for everyone.
    const plan = async (created_between: Record<string, string>, matches: { total: number; exact: boolean }) => {
      const input = usersListQuery.input.parse({ filters: { created_between }, sort: 'name', dir: 'asc', page: 50 });
      const where = usersWhere(t.db, input);
      return rangeReadHints(t.db, input, where, matches, await readStats(t.db), { offset: 490, limit: 10 });
    };
    const narrow = await plan({ from: '2001-04-01', to: '2001-04-30' }, { total: 7, exact: true });
    const wide = await plan({ from: '2000-01-01' }, { total: LIST_COUNT_BOUND, exact: false });
    // SQLite's planner picks its own index from its statistics: no hint is given there.
    const forced = (index: string) =>
      t.db.dialect === 'mysql' ? { indexHints: [{ type: 'FORCE', values: [index] }] } : {};
    expect(narrow).toEqual(forced('users_deleted_created'));
    expect(wide).toEqual(forced('users_deleted_name'));
  });

  it("walks in id order (exports, a bulk job's chunks) through the table itself while live users are the majority", () => {
    const walk = (trashed: 'without' | 'only', stats: { total: number; trashed: number }) =>
      idWalkHints(t.db, usersListQuery.input.parse({ filters: { trashed } }), {
        ...stats,
        active: stats.total,
        inactive: 0,
      });
    const force = (index: string) =>
      t.db.dialect === 'mysql' ? { indexHints: [{ type: 'FORCE', values: [index] }] } : {};
    expect(walk('without', { total: 900, trashed: 100 })).toEqual(force('PRIMARY'));
    // A trash holding most rows: the live users' index skips them.
    expect(walk('without', { total: 100, trashed: 900 })).toEqual(force('users_deleted_id'));
    // The trash itself: the optimizer picks.
    expect(walk('only', { total: 900, trashed: 100 })).toEqual({});
  });
});
