import { usersListQuery } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TrashMode, valueIndexCount, withAttributeScope } from '../../src/modules/users/users.attributes-query.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

/**
 * Each custom attribute value carries its holder's trash state (migration 0035), so the list
 * counts and walks attribute matches on the value index alone. The flag must follow every way a
 * user is deleted or restored, and every trash view (live, deleted, both) must count, filter and
 * sort exactly as the users table says.
 */
let t: TestApp;
let admin: ReturnType<typeof usersApi>;
let caller: ReturnType<typeof request>;
const ids: number[] = [];
const password = { password: 'a-strong-password', password_confirmation: 'a-strong-password' };

/** Values whose flag disagrees with its holder's row. */
const strays = () =>
  t.db.sequelize.query<{ user_id: number; attribute_id: number; user_live: number }>(
    `SELECT v.user_id, v.attribute_id, v.user_live FROM user_attribute_values v JOIN users u ON u.id = v.user_id
      WHERE v.user_live <> (CASE WHEN u.deleted_at IS NULL THEN 1 ELSE 0 END)`,
    { type: QueryTypes.SELECT },
  );
const expectFlagsExact = async () => expect(await strays()).toEqual([]);

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const token = await g.token((await g.user({ roles: ['admin'], name: 'State Admin' })).id);
  admin = usersApi(t.app, token);
  caller = request(t.app, { token });
  for (const body of [
    { key: 'team', label: 'Team', type: 'enum', values: ['Red', 'Blue'] },
    { key: 'grade', label: 'Grade', type: 'number' },
    { key: 'city', label: 'City', type: 'string' },
  ]) {
    const res = await caller.post('/api/attributes', { sensitivity: 'none', ...body });
    expect(res.statusCode, res.body).toBe(201);
  }
  // Ties on every value, a user without a team, one without a grade, cities in both letter cases.
  const cities = ['Oslo', 'lima', 'Rome', 'oslo', 'Lagos', 'Bern'];
  for (let i = 0; i < 14; i++) {
    const attributes = {
      ...(i % 5 !== 4 ? { team: i % 2 ? 'Red' : 'Blue' } : {}),
      ...(i % 7 !== 6 ? { grade: i % 4 } : {}),
      city: cities[i % cities.length],
    };
    const res = await admin.create({ name: `State ${i}`, email: `state${i}@state.test`, ...password, attributes });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().item.id);
  }
}, 60_000);
afterAll(() => t.close());

describe('the trash state on attribute values: kept by every write', () => {
  it('follows deletion and restoration one by one, in bulk, by hand, and new values after a restore', async () => {
    const [a, b, c, d, e, f] = ids as [number, number, number, number, number, number];
    await expectFlagsExact();
    // Only an inactive user can be deleted; a status change leaves the flags alone.
    expect((await admin.bulk({ operation: 'setActive', active: false, ids: [a, b, c, d, e, f] })).statusCode).toBe(200);
    await expectFlagsExact();
    const removed = await admin.remove(a);
    expect(removed.statusCode, removed.body).toBe(204);
    await expectFlagsExact();
    expect((await admin.restore(a)).statusCode).toBeLessThan(300);
    expect((await admin.bulk({ operation: 'delete', ids: [b, c, d] })).statusCode).toBe(200);
    await expectFlagsExact();
    expect((await admin.bulk({ operation: 'restore', ids: [c] })).statusCode).toBe(200);
    // A value written after a restore is live.
    expect((await admin.setActive(c, true)).statusCode).toBe(200);
    const { item } = (await admin.edit(c)).json();
    const res = await admin.update(c, { ...item, attributes: { team: 'Red', grade: 9 } });
    expect(res.statusCode, res.body).toBe(200);
    await expectFlagsExact();
    // A hand-written statement is kept too.
    await t.db.sequelize.query('UPDATE users SET deleted_at = updated_at WHERE id IN (:ids)', {
      replacements: { ids: [e] },
    });
    await t.db.sequelize.query('UPDATE users SET deleted_at = NULL WHERE id = :id', { replacements: { id: d } });
    await expectFlagsExact();
    // A purge takes the values with it.
    expect((await admin.remove(f)).statusCode).toBe(204);
    expect((await admin.bulk({ operation: 'forceDelete', ids: [f] })).statusCode).toBe(200);
    await expectFlagsExact();
    const [left] = await t.db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM user_attribute_values WHERE user_id = :id',
      { replacements: { id: f }, type: QueryTypes.SELECT },
    );
    expect(Number(left?.n)).toBe(0);
    // Both states are present for the next block: b and e deleted, the rest live.
    const [trashed] = await t.db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM users WHERE deleted_at IS NOT NULL',
      { type: QueryTypes.SELECT },
    );
    expect(Number(trashed?.n)).toBe(2);
  });
});

describe('every trash view counts, filters and sorts as the users table does', () => {
  const deletedAt: Record<TrashMode, string> = {
    without: 'u.deleted_at IS NULL',
    only: 'u.deleted_at IS NOT NULL',
    with: '1 = 1',
  };
  const attribute = async (key: string) => {
    const [row] = await t.db.sequelize.query<{ id: number | string }>('SELECT id FROM attributes WHERE `key` = :key', {
      replacements: { key },
      type: QueryTypes.SELECT,
    });
    return Number(row?.id);
  };
  const held = async (key: string, test: string) =>
    `EXISTS (SELECT 1 FROM user_attribute_values v WHERE v.user_id = u.id AND v.attribute_id = ${await attribute(key)} AND ${test})`;

  /** The ids the users table gives for the conditions, in `order`. */
  async function reference(mode: TrashMode, conditions: string[], order = 'u.id ASC'): Promise<number[]> {
    const rows = await t.db.sequelize.query<{ id: number | string }>(
      `SELECT u.id FROM users u WHERE ${[deletedAt[mode], ...conditions].join(' AND ')}
        ORDER BY ${order}`,
      { type: QueryTypes.SELECT },
    );
    return rows.map((r) => Number(r.id));
  }

  const cases = async (): Promise<Array<[string, string[]]>> => [
    ['filters[attributes][team]=red', [await held('team', "v.text_value = 'Red'")]],
    [
      'filters[attributes][team][]=Red&filters[attributes][team][]=Blue',
      [await held('team', "v.text_value IN ('Red', 'Blue')")],
    ],
    ['filters[attributes][grade][from]=2', [await held('grade', 'v.number_value >= 2')]],
    ['filters[attributes][city][contains]=OS', [await held('city', "LOWER(v.text_value) LIKE '%os%'")]],
    [
      'filters[attributes][team]=Blue&filters[attributes][grade][empty]=true',
      [await held('team', "v.text_value = 'Blue'"), `NOT ${await held('grade', '1 = 1')}`],
    ],
    [
      'filters[attributes][grade]=1&filters[attributes][city][contains]=o',
      [await held('grade', 'v.number_value = 1'), await held('city', "LOWER(v.text_value) LIKE '%o%'")],
    ],
  ];

  it('the list total and "select all matching" in each view', async () => {
    for (const mode of ['without', 'only', 'with'] as const) {
      for (const [query, conditions] of await cases()) {
        const want = (await reference(mode, conditions)).length;
        const q = `filters[trashed]=${mode}&${query}`;
        const listed = (await admin.list(`?${q}&perPage=5`)).json();
        expect({ q, total: listed.meta.total, exact: listed.meta.totalExact }).toEqual({ q, total: want, exact: true });
        const selected = await caller.get(`/api/users/selected?${q}&limit=2`);
        expect(selected.statusCode, selected.body).toBe(200);
        expect({ q, total: selected.json().total }).toEqual({ q, total: want });
      }
    }
  });

  it('pages sorted by an attribute in each view, holders in value order then the rest, both directions', async () => {
    const grade = await attribute('grade');
    const city = await attribute('city');
    const value = (id: number, column: string) =>
      `(SELECT v.${column} FROM user_attribute_values v WHERE v.attribute_id = ${id} AND v.user_id = u.id)`;
    const sorts: Array<[string, string]> = [
      ['grade', value(grade, 'number_value')],
      ['city', `LOWER(${value(city, 'text_value')})`],
    ];
    for (const mode of ['without', 'only', 'with'] as const) {
      for (const [key, sql] of sorts) {
        for (const dir of ['asc', 'desc'] as const) {
          const d = dir.toUpperCase();
          const want = await reference(mode, [], `${sql} IS NULL ASC, ${sql} ${d}, u.id ${d}`);
          const got: number[] = [];
          for (let page = 1; page <= Math.ceil(want.length / 4) + 1; page++) {
            const res = await admin.list(
              `?filters[trashed]=${mode}&sort=attributes.${key}&dir=${dir}&perPage=4&page=${page}`,
            );
            expect(res.statusCode, res.body).toBe(200);
            got.push(...res.json().rows.map((row: { id: number }) => row.id));
          }
          expect({ mode, key, dir, got }).toEqual({ mode, key, dir, got: want });
        }
      }
    }
  });

  it('the value index counts only a query of attributes alone', async () => {
    const scoped = async (input: Record<string, unknown>) =>
      (
        await withAttributeScope(
          t.db,
          { permissions: new Set(['attributes.sensitive.view']) } as never,
          usersListQuery.input.parse(input),
        )
      ).query;
    const counted = async (input: Record<string, unknown>) => valueIndexCount(t.db, await scoped(input), 10) !== null;
    const team = { team: 'Red' };
    expect(await counted({ filters: { attributes: team } })).toBe(true);
    expect(await counted({ filters: { attributes: team, trashed: 'with' } })).toBe(true);
    expect(await counted({ filters: { attributes: { ...team, grade: { empty: 'true' } } } })).toBe(true);
    expect(await counted({ filters: { attributes: { grade: { empty: 'true' } } } })).toBe(false);
    expect(await counted({ filters: { attributes: team, is_active: 'true' } })).toBe(false);
    expect(await counted({ filters: { attributes: team }, q: 'state' })).toBe(false);
    expect(await counted({ filters: {} })).toBe(false);
  });
});
