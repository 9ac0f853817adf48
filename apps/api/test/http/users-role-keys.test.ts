import { usersListQuery } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlDate } from '../../src/db/sql-date.js';
import { withAttributeScope } from '../../src/modules/users/users.attributes-query.js';
import { roleKeysCount, roleKeysQuery } from '../../src/modules/users/users.role-keys.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

/**
 * The role-filtered list reads the list keys (migration 0034): they must hold exactly what the
 * users and their roles say after every kind of write, and a page read from them must be the page
 * the users table gives.
 */
let t: TestApp;
let admin: ReturnType<typeof usersApi>;
const role: Record<string, number> = {};

/** What the keys must hold: derived from user_roles and users, as the migration's backfill does. */
const derived = () =>
  t.db.sequelize.query<Record<string, unknown>>(
    `SELECT ur.user_id, ur.role_id, u.deleted_at, u.is_active, u.created_at, u.name
       FROM user_roles ur JOIN users u ON u.id = ur.user_id ORDER BY ur.user_id, ur.role_id`,
    { type: QueryTypes.SELECT },
  );
const keys = () =>
  t.db.sequelize.query<Record<string, unknown>>(
    `SELECT user_id, role_id, deleted_at, is_active, created_at, name FROM user_role_keys ORDER BY user_id, role_id`,
    { type: QueryTypes.SELECT },
  );
const plain = (rows: Array<Record<string, unknown>>) =>
  rows.map((r) => ({
    ...r,
    user_id: Number(r.user_id),
    role_id: Number(r.role_id),
    is_active: Boolean(Number(r.is_active)),
    deleted_at: r.deleted_at === null ? null : new Date(String(r.deleted_at)).toISOString(),
    created_at: new Date(String(r.created_at)).toISOString(),
  }));

async function expectKeysExact() {
  const [want, have] = await Promise.all([derived(), keys()]);
  expect(plain(have)).toEqual(plain(want));
}

/** Names chosen so the name order has ties that differ only in case, broken by id. */
const NAMES = ['ada Lovelace', 'Ada Lovelace', 'Bob Stone', 'bob stone', 'Cleo Park', 'Dan Wu', 'Émile Zola', 'Eve Ng'];

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  for (const r of await t.db.models.Role.findAll()) role[r.name] = r.id;
  admin = usersApi(t.app, await g.token((await g.user({ roles: ['admin'], name: 'Keys Admin' })).id));
}, 60_000);
afterAll(() => t.close());

describe('list keys per role: kept by every write', () => {
  it('follow creation with roles, edits, status, trash, restore, purge, bulk and role changes', async () => {
    const created: number[] = [];
    for (const [i, name] of NAMES.entries()) {
      const res = await admin.create({
        name,
        email: `keys${i}@keys.example`,
        password: 'a-strong-password',
        password_confirmation: 'a-strong-password',
        roles_ids: i % 2 ? [role.viewer] : [role.manager, role.viewer],
      });
      expect(res.statusCode).toBe(201);
      created.push(res.json().item.id);
    }
    const [a, b, c, d, e, f] = created as [number, number, number, number, number, number];
    await expectKeysExact();

    const { item } = (await admin.edit(a)).json();
    expect((await admin.update(a, { ...item, name: 'Ada Byron', roles_ids: [role.viewer] })).statusCode).toBe(200);
    expect((await admin.setActive(b, false)).statusCode).toBe(200);
    expect((await admin.remove(b)).statusCode).toBe(204);
    await expectKeysExact();

    expect((await admin.restore(b)).statusCode).toBeLessThan(300);
    expect((await admin.bulk({ operation: 'setActive', ids: [c, d], active: false })).statusCode).toBe(200);
    expect((await admin.bulk({ operation: 'addRole', role_id: role.manager, ids: [b, d] })).statusCode).toBe(200);
    expect((await admin.bulk({ operation: 'removeRole', role_id: role.viewer, ids: [e] })).statusCode).toBe(200);
    expect((await admin.bulk({ operation: 'delete', ids: [c, d] })).statusCode).toBe(200);
    expect((await admin.bulk({ operation: 'forceDelete', ids: [d] })).statusCode).toBe(200);
    await expectKeysExact();

    // A hand-written statement is kept too: a rename differing only in accents, and a new date.
    await t.db.sequelize.query(`UPDATE users SET name = 'Emile Zola', created_at = :at WHERE id = :id`, {
      replacements: { id: f, at: sqlDate(t.db, new Date(Date.UTC(2019, 4, 1))) },
    });
    await t.db.sequelize.query('UPDATE users SET name = :name WHERE id = :id', {
      replacements: { id: created[6], name: 'Emile Zola' },
    });
    await expectKeysExact();

    // A role deleted takes its rows with it.
    const temp = await t.db.models.Role.create({ name: 'Temporary Keys', guard_name: 'web' });
    await t.db.models.UserRole.bulkCreate([{ user_id: e, role_id: temp.id }]);
    await expectKeysExact();
    await temp.destroy();
    await expectKeysExact();
  });
});

describe('list keys per role: the pages they give', () => {
  const list = async (query: string) => (await admin.list(`?${query}`)).json();

  /** The ids the users table gives for the same filters, in the same order (the reference). */
  async function reference(
    roleId: number,
    opts: { active?: boolean; from?: string; to?: string; sort: string; dir: 'asc' | 'desc' },
  ): Promise<number[]> {
    const conditions = [
      'u.deleted_at IS NULL',
      'EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_id = :roleId)',
    ];
    if (opts.active !== undefined) conditions.push('u.is_active = :active');
    if (opts.from) conditions.push('u.created_at >= :from');
    if (opts.to) conditions.push('u.created_at <= :to');
    const column = { id: 'u.id', name: 'u.name', created_at: 'u.created_at' }[opts.sort] as string;
    const dir = opts.dir.toUpperCase();
    const rows = await t.db.sequelize.query<{ id: number | string }>(
      `SELECT u.id FROM users u WHERE ${conditions.join(' AND ')} ORDER BY ${column} ${dir}, u.id ${dir}`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          roleId,
          active: opts.active ? 1 : 0,
          from: opts.from ? sqlDate(t.db, new Date(opts.from)) : null,
          to: opts.to ? sqlDate(t.db, new Date(opts.to)) : null,
        },
      },
    );
    return rows.map((r) => Number(r.id));
  }

  beforeAll(async () => {
    // Forty users over four years, with every status, and names with case-only ties.
    const g = given(t.db);
    for (let i = 0; i < 40; i++) {
      const user = await g.user({
        name: NAMES[i % NAMES.length] as string,
        roles: i % 3 === 0 ? ['manager'] : ['manager', 'viewer'],
        active: i % 4 !== 0,
        deleted: i % 7 === 0 && i % 4 === 0,
      });
      await t.db.models.User.update(
        { created_at: new Date(Date.UTC(2022 + (i % 4), i % 12, 1 + (i % 27))) },
        { where: { id: user.id }, paranoid: false },
      );
    }
  }, 60_000);

  const cases = [
    { sort: 'id', dir: 'desc' },
    { sort: 'name', dir: 'asc' },
    { sort: 'name', dir: 'desc' },
    { sort: 'created_at', dir: 'asc' },
  ] as const;

  it.each(cases)('match the users table: one role, by $sort $dir, with every page', async ({ sort, dir }) => {
    for (const filters of [
      {},
      { active: true },
      { active: false },
      { from: '2023-01-01T00:00:00.000Z', to: '2024-12-31T23:59:59.999Z' },
      { active: true, from: '2024-01-01T00:00:00.000Z' },
    ]) {
      const want = await reference(role.manager as number, { ...filters, sort, dir });
      const query = [
        `filters[role_id][]=${role.manager}`,
        `sort=${sort}`,
        `dir=${dir}`,
        'perPage=10',
        ...(filters.active !== undefined ? [`filters[is_active]=${filters.active}`] : []),
        ...(filters.from ? [`filters[created_between][from]=${filters.from}`] : []),
        ...(filters.to ? [`filters[created_between][to]=${filters.to}`] : []),
      ].join('&');
      const got: number[] = [];
      const pages = Math.ceil(want.length / 10) + 1;
      for (let page = 1; page <= pages; page++) {
        const { rows, meta } = await list(`${query}&page=${page}`);
        expect(meta).toMatchObject({ total: want.length, totalExact: true });
        got.push(...rows.map((r: { id: number }) => r.id));
      }
      expect({ filters, got }).toEqual({ filters, got: want });
    }
  });
});

describe('list keys per role: counts with custom attributes', () => {
  const attribute: Record<string, number> = {};
  let caller: ReturnType<typeof request>;

  beforeAll(async () => {
    caller = request(t.app, {
      token: await given(t.db).token((await given(t.db).user({ roles: ['admin'] })).id),
    });
    for (const body of [
      { key: 'team', label: 'Team', type: 'enum', values: ['Red', 'Blue'] },
      { key: 'grade', label: 'Grade', type: 'number' },
    ]) {
      const res = await caller.post('/api/attributes', { sensitivity: 'none', ...body });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const row of await t.db.sequelize.query<{ id: number | string; key: string }>(
      'SELECT id, `key` FROM attributes',
      { type: QueryTypes.SELECT },
    )) {
      attribute[row.key] = Number(row.id);
    }
    // Every user of the previous block: a team for two in three, a grade for every one.
    const users = await t.db.sequelize.query<{ id: number | string }>('SELECT id FROM users ORDER BY id', {
      type: QueryTypes.SELECT,
    });
    for (const [i, { id }] of users.entries()) {
      const rows = [`(${attribute.grade}, ${Number(id)}, NULL, ${i % 5}, NULL)`];
      if (i % 3 !== 2) rows.push(`(${attribute.team}, ${Number(id)}, '${i % 2 ? 'Red' : 'Blue'}', NULL, NULL)`);
      await t.db.sequelize.query(
        `INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value, unique_value) VALUES ${rows.join(', ')}`,
      );
    }
    // Written by hand, a deleted holder's values must say so (migration 0035).
    await t.db.sequelize.query(
      'UPDATE user_attribute_values SET user_live = 0 WHERE user_id IN (SELECT id FROM users WHERE deleted_at IS NOT NULL)',
    );
  }, 60_000);

  /** How many live holders of the manager role pass `conditions` (SQL on u), by the users table. */
  async function expected(conditions: string[]): Promise<number> {
    const [row] = await t.db.sequelize.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM users u
        WHERE u.deleted_at IS NULL
          AND EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_id = ${role.manager})
          ${conditions.map((c) => `AND ${c}`).join(' ')}`,
      { type: QueryTypes.SELECT },
    );
    return Number(row?.n);
  }
  const value = (key: string, test: string) =>
    `EXISTS (SELECT 1 FROM user_attribute_values v WHERE v.user_id = u.id AND v.attribute_id = ${attribute[key]} AND ${test})`;

  it('count as the users table does, for every kind of attribute condition', async () => {
    const cases: Array<[string, string[]]> = [
      ['filters[attributes][team]=red', [value('team', "v.text_value = 'Red'")]],
      [
        'filters[attributes][team]=Red&filters[is_active]=true',
        [value('team', "v.text_value = 'Red'"), 'u.is_active = 1'],
      ],
      [
        'filters[attributes][grade][from]=2&filters[is_active]=false',
        [value('grade', 'v.number_value >= 2'), 'u.is_active = 0'],
      ],
      ['filters[attributes][team][empty]=true', [`NOT ${value('team', '1 = 1')}`]],
      [
        'filters[attributes][team][]=Blue&filters[attributes][grade]=3&filters[created_between][from]=2023-01-01T00:00:00.000Z',
        [value('team', "v.text_value = 'Blue'"), value('grade', 'v.number_value = 3'), "u.created_at >= '2023-01-01'"],
      ],
    ];
    for (const [query, conditions] of cases) {
      const want = await expected(conditions);
      const { meta } = (await admin.list(`?filters[role_id][]=${role.manager}&${query}&perPage=5`)).json();
      expect({ query, total: meta.total, exact: meta.totalExact }).toEqual({ query, total: want, exact: true });
    }
  });

  it('count every match of "select all matching" as the users table does', async () => {
    const cases: Array<[string, string[]]> = [
      ['', []],
      ['filters[is_active]=false', ['u.is_active = 0']],
      ['filters[attributes][team]=blue', [value('team', "v.text_value = 'Blue'")]],
      [
        'filters[attributes][grade][to]=1&filters[is_active]=true',
        [value('grade', 'v.number_value <= 1'), 'u.is_active = 1'],
      ],
    ];
    for (const [query, conditions] of cases) {
      const want = await expected(conditions);
      const res = await caller.get(`/api/users/selected?filters[role_id][]=${role.manager}&${query}&limit=2`);
      expect(res.statusCode, res.body).toBe(200);
      expect({ query, total: res.json().total }).toEqual({ query, total: want });
    }
  });

  it('are taken only where the keys hold every other filter', async () => {
    const scoped = async (input: Record<string, unknown>) => {
      const parsed = usersListQuery.input.parse(input);
      return (await withAttributeScope(t.db, { permissions: new Set(['attributes.sensitive.view']) } as never, parsed))
        .query;
    };
    const keyed = async (input: Record<string, unknown>) => roleKeysCount(t.db, await scoped(input), 1) !== null;
    const team = { attributes: { team: 'Red' } };
    expect(await keyed({ filters: { ...team, role_id: [role.manager] } })).toBe(true);
    expect(
      await keyed({ filters: { ...team, role_id: [role.manager], is_active: 'true' }, sort: 'attributes.grade' }),
    ).toBe(true);
    expect(await keyed({ filters: { role_id: [role.manager], is_active: 'false' } })).toBe(true);
    expect(await keyed({ filters: { ...team } })).toBe(false);
    expect(await keyed({ filters: { ...team, role_id: [role.manager, role.viewer] } })).toBe(false);
    expect(await keyed({ filters: { ...team, role_id: [role.manager] }, q: 'ada' })).toBe(false);
    expect(await keyed({ filters: { ...team, role_id: [role.manager], trashed: 'with' } })).toBe(false);
  });
});

describe('list keys per role: which lists read them', () => {
  const answered = (input: Record<string, unknown>) => roleKeysQuery(usersListQuery.input.parse(input)) !== null;
  const year = { from: '2025-01-01', to: '2025-12-31' };

  it('one role, with at most the status and a date range, sorted by id, name or creation date', () => {
    expect(answered({ filters: { role_id: [2] } })).toBe(true);
    expect(answered({ filters: { role_id: [2], is_active: 'true', created_between: year }, sort: 'name' })).toBe(true);
    expect(answered({ filters: { role_id: 2, trashed: 'without' }, sort: 'created_at', dir: 'asc' })).toBe(true);
  });

  it('anything else is read from the users table', () => {
    expect(answered({})).toBe(false);
    expect(answered({ filters: { is_active: 'true' } })).toBe(false);
    expect(answered({ filters: { role_id: [2, 3] } })).toBe(false);
    expect(answered({ filters: { role_id: [2] }, q: 'ada' })).toBe(false);
    expect(answered({ filters: { role_id: [2], trashed: 'with' } })).toBe(false);
    expect(answered({ filters: { role_id: [2], name: 'ada' } })).toBe(false);
    expect(answered({ filters: { role_id: [2] }, sort: 'email' })).toBe(false);
  });
});
