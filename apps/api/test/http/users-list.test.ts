import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { insertUsers, roleIdOf } from '../support/users-fixture.js';

let t: TestApp;
let token: string;
let viewerToken: string;
const ids: Record<string, number> = {};

const PEOPLE = [
  {
    key: 'ada',
    name: 'Ada Lovelace',
    email: 'ada@analytical.example',
    is_active: true,
    created_at: '2024-01-10T08:00:00Z',
    roles: ['admin'],
  },
  {
    key: 'alan',
    name: 'Alan Turing',
    email: 'alan@bletchley.example',
    is_active: false,
    created_at: '2024-02-01T00:00:00Z',
    roles: ['manager', 'viewer'],
  },
  {
    key: 'grace',
    name: 'Grace Hopper',
    email: 'grace@navy.example',
    is_active: true,
    created_at: '2024-02-01T23:59:59.999Z',
    roles: ['viewer'],
  },
  {
    key: 'linus',
    name: 'linus torvalds',
    email: 'linus@kernel.example',
    is_active: true,
    created_at: '2024-02-02T00:00:00Z',
    roles: [],
  },
  {
    key: 'pct',
    name: '100% Sure',
    email: 'percent@odd.example',
    is_active: true,
    created_at: '2024-03-01T12:00:00Z',
    roles: ['viewer'],
  },
  {
    key: 'under',
    name: 'Under_Score',
    email: 'under_score@odd.example',
    is_active: false,
    created_at: '2024-03-02T12:00:00Z',
    roles: [],
  },
  {
    key: 'slash',
    name: 'Back\\Slash',
    email: 'backslash@odd.example',
    is_active: true,
    created_at: '2024-03-03T12:00:00Z',
    roles: [],
  },
  {
    key: 'gone',
    name: 'Gone Away',
    email: 'gone@away.example',
    is_active: false,
    created_at: '2024-04-01T00:00:00Z',
    deleted_at: '2024-05-01T00:00:00Z',
    roles: ['viewer'],
  },
];

beforeAll(async () => {
  t = await startTestApp();
  const created = await insertUsers(t.db, PEOPLE);
  PEOPLE.forEach((p, i) => {
    ids[p.key] = created[i] as number;
  });
  const g = given(t.db);
  // The callers: created after the fixture, so they have the highest ids; excluded from assertions by filters.
  token = await g.token((await g.user({ roles: ['admin'], email: 'caller@zz.example', name: 'Zz Caller' })).id);
  viewerToken = await g.token((await g.user({ roles: ['viewer'], email: 'viewer@zz.example', name: 'Zz Viewer' })).id);
});
afterAll(() => t.close());

const list = (query: string, as = token) => request(t.app, { token: as }).get(`/api/users${query ? `?${query}` : ''}`);
const fixtureIds = (rows: Array<{ id: number }>) =>
  rows.map((r) => r.id).filter((id) => Object.values(ids).includes(id));
const names = (res: { json(): { rows: Array<{ name: string }> } }) => res.json().rows.map((r) => r.name);

describe('GET /users', () => {
  it('answers rows, meta, stats, availableRoles and filters, newest id first by default', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['rows', 'meta', 'stats', 'availableRoles', 'filters', 'attributes']);
    const all = body.rows.map((r: { id: number }) => r.id);
    expect(all).toEqual([...all].sort((a: number, b: number) => b - a));
    expect(body.rows[0]).toEqual({
      id: expect.any(Number),
      name: 'Zz Viewer',
      email: 'viewer@zz.example',
      roles_count: 1,
      roles: ['viewer'],
      is_active: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deleted_at: null,
      // What the administrator listing may do to this active viewer, as the writes would judge it.
      actions: {
        update: { allowed: true },
        setActive: { allowed: true },
        delete: { allowed: false, code: 'NOT_INACTIVE', message: expect.stringContaining('deactivate the account') },
        restore: { allowed: false, code: 'NOT_DELETED', message: 'Zz Viewer is not deleted.' },
        forceDelete: { allowed: false, code: 'NOT_DELETED', message: 'Zz Viewer is not deleted.' },
      },
      // No custom attribute is declared here: the row's values are an empty record.
      attributes: {},
    });
    expect(body.meta).toEqual({ page: 1, perPage: 10, total: 9, totalExact: true, pageCount: 1 });
    expect(body.availableRoles.map((r: { name: string }) => r.name)).toEqual(['admin', 'manager', 'viewer']);
    expect(body.filters).toEqual({ trashed: 'without' });
  });

  it('counts roles per row and shows timestamps in UTC', async () => {
    const res = await list('filters[email]=alan@');
    expect(res.json().rows).toEqual([
      expect.objectContaining({
        id: ids.alan,
        roles_count: 2,
        is_active: false,
        created_at: '2024-02-01T00:00:00.000Z',
      }),
    ]);
  });

  it('sorts by each allowed column, both ways, ties broken by id', async () => {
    expect(names(await list('sort=name&filters[email]=.example&perPage=100')).slice(0, 3)).toEqual([
      '100% Sure',
      'Ada Lovelace',
      'Alan Turing',
    ]);
    const desc = names(await list('sort=name&dir=DESC&perPage=100'));
    expect(desc[0]).toBe('Zz Viewer');
    expect(desc).toContain('linus torvalds');
    const byCreated = (await list('sort=created_at&dir=asc&perPage=3')).json().rows.map((r: { id: number }) => r.id);
    expect(byCreated).toEqual([ids.ada, ids.alan, ids.grace]);
    const byActive = (await list('sort=is_active&dir=asc&perPage=100')).json().rows;
    expect(byActive.slice(0, 2).map((r: { id: number }) => r.id)).toEqual([ids.alan, ids.under]);
    expect((await list('sort=email&perPage=1')).json().rows[0].email).toBe('ada@analytical.example');
    expect((await list('sort=id&dir=desc&perPage=1')).json().rows[0].name).toBe('Zz Viewer');
  });

  it('matches q against name or e-mail, case-insensitively', async () => {
    expect(fixtureIds((await list('q=LOVELACE')).json().rows)).toEqual([ids.ada]);
    expect(fixtureIds((await list('q=bletchley')).json().rows)).toEqual([ids.alan]);
    expect(fixtureIds((await list('q=LINUS')).json().rows)).toEqual([ids.linus]);
  });

  it('matches %, _ and \\ literally', async () => {
    expect(fixtureIds((await list('q=%25')).json().rows)).toEqual([ids.pct]);
    expect(fixtureIds((await list('q=_')).json().rows)).toEqual([ids.under]);
    expect(fixtureIds((await list('q=%5C')).json().rows)).toEqual([ids.slash]);
  });

  it('filters by name and e-mail (contains, case-insensitive)', async () => {
    expect(fixtureIds((await list('filters[name]=HOPPER')).json().rows)).toEqual([ids.grace]);
    expect(fixtureIds((await list('filters[email]=odd.EXAMPLE&sort=id')).json().rows)).toEqual([
      ids.pct,
      ids.under,
      ids.slash,
    ]);
  });

  it('filters by one role or any of several', async () => {
    const viewer = await roleIdOf(t.db, 'viewer');
    const manager = await roleIdOf(t.db, 'manager');
    const admin = await roleIdOf(t.db, 'admin');
    expect(fixtureIds((await list(`filters[role_id]=${manager}`)).json().rows)).toEqual([ids.alan]);
    expect(
      fixtureIds((await list(`filters[role_id][]=${admin}&filters[role_id][]=${manager}&sort=id`)).json().rows),
    ).toEqual([ids.ada, ids.alan]);
    expect(fixtureIds((await list(`filters[role_id]=${viewer}&sort=id`)).json().rows)).toEqual([
      ids.alan,
      ids.grace,
      ids.pct,
    ]);
  });

  it('filters by status: all, active, inactive, true and 0', async () => {
    const inactive = [ids.alan, ids.under];
    expect(fixtureIds((await list('filters[is_active]=inactive&sort=id')).json().rows)).toEqual(inactive);
    expect(fixtureIds((await list('filters[is_active]=0&sort=id')).json().rows)).toEqual(inactive);
    expect((await list('filters[is_active]=active')).json().meta.total).toBe(7);
    expect((await list('filters[is_active]=true')).json().meta.total).toBe(7);
    expect((await list('filters[is_active]=all')).json().meta.total).toBe(9);
  });

  it('filters by creation date: from only, to only, swapped, date-only bounds whole days', async () => {
    const on = (q: string) => list(`${q}&sort=created_at&perPage=100`).then((r) => fixtureIds(r.json().rows));
    expect(await on('filters[created_between][from]=2024-03-01')).toEqual([ids.pct, ids.under, ids.slash]);
    expect(await on('filters[created_between][to]=2024-01-31')).toEqual([ids.ada]);
    // 2024-02-01 as a whole UTC day includes 00:00:00 and 23:59:59.999.
    expect(await on('filters[created_between][from]=2024-02-01&filters[created_between][to]=2024-02-01')).toEqual([
      ids.alan,
      ids.grace,
    ]);
    expect(await on('filters[created_between][from]=2024-02-02&filters[created_between][to]=2024-02-01')).toEqual([
      ids.alan,
      ids.grace,
      ids.linus,
    ]);
    expect(
      await on('filters[created_between][from]=2024-02-01T12:00:00Z&filters[created_between][to]=2024-02-02T00:00:00Z'),
    ).toEqual([ids.grace, ids.linus]);
  });

  it('combines search and filters', async () => {
    const viewer = await roleIdOf(t.db, 'viewer');
    const res = await list(
      `q=example&filters[is_active]=active&filters[role_id]=${viewer}&filters[created_between][from]=2024-02-01`,
    );
    expect(fixtureIds(res.json().rows)).toEqual([ids.pct, ids.grace]);
    expect(res.json().filters).toEqual({
      is_active: true,
      role_id: [viewer],
      created_between: { from: '2024-02-01T00:00:00.000Z' },
      trashed: 'without',
    });
  });

  it('shows the trash only to callers who may restore or purge', async () => {
    const only = await list('filters[trashed]=only');
    expect(fixtureIds(only.json().rows)).toEqual([ids.gone]);
    expect(only.json().rows[0].deleted_at).toBe('2024-05-01T00:00:00.000Z');
    expect((await list('filters[trashed]=with')).json().meta.total).toBe(10);
    const refused = await list('filters[trashed]=with', viewerToken);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.restore' });
  });

  it('pages: a page past the end is empty with correct meta; perPage above the maximum is capped', async () => {
    const past = await list('page=99&perPage=5');
    expect(past.statusCode).toBe(200);
    expect(past.json().rows).toEqual([]);
    expect(past.json().meta).toEqual({ page: 99, perPage: 5, total: 9, totalExact: true, pageCount: 2 });
    expect((await list('perPage=500')).json().meta.perPage).toBe(100);
    const p1 = (await list('perPage=4&page=1&sort=name')).json().rows.map((r: { id: number }) => r.id);
    const p2 = (await list('perPage=4&page=2&sort=name')).json().rows.map((r: { id: number }) => r.id);
    expect(new Set([...p1, ...p2]).size).toBe(8);
  });

  it('gives stats over all non-deleted users, ignoring filters; trash count only for those who may see it', async () => {
    const admin = (await list('filters[name]=nobody-matches')).json();
    expect(admin.rows).toEqual([]);
    expect(admin.stats).toEqual({ total: 9, active: 7, inactive: 2, trashed: 1 });
    expect((await list('', viewerToken)).json().stats).toEqual({ total: 9, active: 7, inactive: 2 });
  });

  it('keeps the stats equal to a fresh count', async () => {
    const [row] = await t.db.sequelize.query<{ total: number; active: number; trashed: number }>(
      `SELECT SUM(CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END) AS total,
              SUM(CASE WHEN deleted_at IS NULL AND is_active = 1 THEN 1 ELSE 0 END) AS active,
              SUM(CASE WHEN deleted_at IS NOT NULL THEN 1 ELSE 0 END) AS trashed FROM users`,
      { type: QueryTypes.SELECT },
    );
    const stats = (await list('')).json().stats;
    expect([stats.total, stats.active, stats.trashed]).toEqual([
      Number(row?.total),
      Number(row?.active),
      Number(row?.trashed),
    ]);
  });

  it('refuses bad input with 422 and the failing path', async () => {
    const cases: Array<[string, string]> = [
      ['sort=password', 'sort'],
      ['filters[color]=red', 'filters.color'],
      ['page=0', 'page'],
      ['perPage=abc', 'perPage'],
      ['dir=sideways', 'dir'],
      ['filters[created_between][from]=yesterday', 'filters.created_between.from'],
      ['filters=plain', 'filters'],
      [`q=${'x'.repeat(256)}`, 'q'],
    ];
    for (const [query, path] of cases) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().errors), query).toContain(path);
    }
    const sort = await list('sort=password');
    expect(sort.json().errors.sort[0]).toBe(
      'Sort must be one of: id, name, email, is_active, created_at, attributes.<key>.',
    );
  });

  it('refuses hostile query strings with 422, quickly', async () => {
    const deep = await list(`filters${'[a]'.repeat(30)}=1`);
    expect(deep.statusCode).toBe(422);
    const started = Date.now();
    const many = await list(Array.from({ length: 12_000 }, (_, i) => `x${i}=1`).join('&'));
    expect(many.statusCode).toBe(422);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('answers the same through the tRPC door', async () => {
    const input = encodeURIComponent(JSON.stringify({ q: 'lovelace' }));
    const res = await request(t.app, { token }).get(`/api/trpc/users.list?input=${input}`);
    expect(res.json().result.data.rows.map((r: { id: number }) => r.id)).toEqual([ids.ada]);
    const bad = await request(t.app, { token }).get(
      `/api/trpc/users.list?input=${encodeURIComponent('{"sort":"password"}')}`,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toMatchObject({ code: 'VALIDATION_FAILED', errors: { sort: expect.any(Array) } });
  });
});

describe('GET /users/selected', () => {
  it('answers every matching id in list order, with the total', async () => {
    const res = await request(t.app, { token }).get('/api/users/selected?filters[email]=odd.example&sort=name');
    expect(res.json()).toEqual({ ids: [ids.pct, ids.slash, ids.under], total: 3, truncated: false });
  });

  it('says when the limit truncates the selection', async () => {
    const res = await request(t.app, { token }).get('/api/users/selected?limit=2&sort=id');
    expect(res.json()).toMatchObject({ ids: [ids.ada, ids.alan], total: 9, truncated: true });
  });

  it('ignores page and perPage', async () => {
    const res = await request(t.app, { token }).get('/api/users/selected?page=3&perPage=1&filters[is_active]=inactive');
    expect(res.json().ids.sort()).toEqual([ids.alan, ids.under].sort());
  });
});
