import {
  PERMISSIONS,
  type RoleListRow,
  type RolesListResult,
  rolesListQuery,
  SEEDED_ROLE_DESCRIPTIONS,
} from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadActor } from '../../src/auth/actor.js';
import { listRoles } from '../../src/modules/roles/list.handler.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const BOM = '\uFEFF';
let t: TestApp;
let admin: ReturnType<typeof request>;
let manager: ReturnType<typeof request>;
let adminId: number;
/** The custom roles' ids. */
const role = { auditor: 0, exporter: 0, ops_team: 0, Beta: 0 };
/** The auditors (the last one is the exporter too). */
const auditors: number[] = [];
const auditor = (i: number) => auditors[i] as number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  adminId = (await g.user({ roles: ['admin'] })).id;
  admin = request(t.app, { token: await g.token(adminId) });
  // Holds roles.update and roles.view, and only some of what roles grant.
  await g.role('role-editor', ['roles.view', 'roles.update', 'users.view']);
  manager = request(t.app, { token: await g.token((await g.user({ roles: ['role-editor'] })).id) });
  role.auditor = await g.role('auditor', ['audit.view', 'users.view']);
  role.exporter = await g.role('exporter', ['users.export']);
  role.ops_team = await g.role('ops_team', []);
  role.Beta = await g.role('Beta', ['users.view']);
  await t.db.models.Role.update({ description: 'Reads the trail' }, { where: { id: role.auditor } });
  for (let i = 0; i < 3; i += 1) auditors.push((await g.user({ roles: ['auditor'] })).id);
  auditors.push((await g.user({ roles: ['exporter', 'auditor'] })).id);
  // Distinct creation times, oldest first in this order.
  const order = ['admin', 'manager', 'viewer', 'role-editor', 'auditor', 'exporter', 'ops_team', 'Beta'];
  for (const [i, name] of order.entries()) {
    await t.db.sequelize.query('UPDATE roles SET created_at = :at WHERE name = :name', {
      replacements: { at: new Date(Date.UTC(2024, 0, 1 + i)), name },
    });
  }
});
afterAll(() => t.close());

const list = async (query = '', as = admin): Promise<RolesListResult> => {
  const res = await as.get(`/api/roles${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RolesListResult;
};
const names = (result: RolesListResult) => result.rows.map((r) => r.name);
const rowOf = (result: RolesListResult, name: string) => result.rows.find((r) => r.name === name) as RoleListRow;

describe('GET /api/roles', () => {
  it('lists every role by name (any case), with its counts, version and dates', async () => {
    const result = await list();
    expect(names(result)).toEqual([
      'admin',
      'auditor',
      'Beta',
      'exporter',
      'manager',
      'ops_team',
      'role-editor',
      'viewer',
    ]);
    expect(result.meta).toEqual({ page: 1, perPage: 25, total: 8, totalExact: true, pageCount: 1 });
    expect(result.filters).toEqual({});
    const auditorRow = rowOf(result, 'auditor');
    expect(auditorRow).toMatchObject({
      id: role.auditor,
      description: 'Reads the trail',
      guard_name: 'web',
      permissions_count: 2,
      users_count: 4,
      created_at: '2024-01-05T00:00:00.000Z',
    });
    expect(typeof auditorRow.version).toBe('string');
    expect(rowOf(result, 'ops_team')).toMatchObject({ description: null, permissions_count: 0, users_count: 0 });
    expect(rowOf(result, 'admin').users_count).toBe(1);
  });

  it('finds roles by a piece of their name, in any case, with no character special', async () => {
    expect(names(await list('q=AUD'))).toEqual(['auditor']);
    expect(names(await list('q=_'))).toEqual(['ops_team']);
    expect(names(await list('q=%25'))).toEqual([]);
  });

  it('filters by the permissions granted (any of them) and by the number of users', async () => {
    expect(names(await list('filters[permission]=audit.view'))).toEqual(['admin', 'auditor']);
    const either = await list('filters[permission][]=audit.view&filters[permission][]=users.export');
    expect(names(either)).toEqual(['admin', 'auditor', 'exporter', 'manager']);
    expect(either.filters).toEqual({ permission: ['audit.view', 'users.export'] });
    expect(names(await list('filters[users_count][from]=2'))).toEqual(['auditor']);
    expect(names(await list('filters[users_count][from]=1&filters[users_count][to]=1'))).toEqual([
      'admin',
      'exporter',
      'role-editor',
    ]);
    expect(names(await list('filters[users_count][to]=0'))).toEqual(['Beta', 'manager', 'ops_team', 'viewer']);
    const both = await list('filters[permission]=users.view&filters[users_count][from]=1&q=e');
    expect(names(both)).toEqual(['role-editor']);
  });

  it('sorts by name, by users and by creation, either way, ties by id', async () => {
    expect(names(await list('sort=name&dir=desc'))).toEqual([
      'viewer',
      'role-editor',
      'ops_team',
      'manager',
      'exporter',
      'Beta',
      'auditor',
      'admin',
    ]);
    const byUsers = await list('sort=users_count&dir=desc');
    expect(byUsers.rows.map((r) => r.users_count)).toEqual([4, 1, 1, 1, 0, 0, 0, 0]);
    expect(names(byUsers).slice(1, 4)).toEqual(['exporter', 'role-editor', 'admin']); // id descending among equals
    expect(names(await list('sort=created_at'))).toEqual([
      'admin',
      'manager',
      'viewer',
      'role-editor',
      'auditor',
      'exporter',
      'ops_team',
      'Beta',
    ]);
  });

  it('pages with the meta every list has, also past the last page', async () => {
    const second = await list('sort=created_at&perPage=3&page=2');
    expect(names(second)).toEqual(['role-editor', 'auditor', 'exporter']);
    expect(second.meta).toEqual({ page: 2, perPage: 3, total: 8, totalExact: true, pageCount: 3 });
    const beyond = await list('perPage=3&page=9');
    expect(beyond.rows).toEqual([]);
    expect(beyond.meta).toMatchObject({ page: 9, total: 8, pageCount: 3 });
  });

  it('says what an administrator may do to each role', async () => {
    const result = await list();
    expect(rowOf(result, 'auditor').actions).toEqual({ update: { allowed: true }, delete: { allowed: true } });
    expect(rowOf(result, 'admin').actions).toMatchObject({
      update: { allowed: true },
      delete: { allowed: false, code: 'ROLE_PROTECTED' },
    });
  });

  it('says what one holding roles.update but not every permission may do: no more than the rules let them', async () => {
    const result = await list('', manager);
    const viewer = rowOf(result, 'viewer').actions;
    expect(viewer.update).toEqual({ allowed: true });
    expect(viewer.delete).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
    expect(viewer.delete.message).toContain('roles.delete');
    const auditorUpdate = rowOf(result, 'auditor').actions.update;
    expect(auditorUpdate).toMatchObject({ allowed: false, code: 'OUTRANKED' });
    expect(auditorUpdate.message).toContain('audit.view');
    expect(rowOf(result, 'admin').actions.update).toMatchObject({ allowed: false, code: 'OUTRANKED' });
  });

  it('keeps users_count exact as memberships change: given, taken, trashed, restored, erased', async () => {
    const g = given(t.db);
    const count = async () => rowOf(await list('q=auditor'), 'auditor').users_count;
    expect(await count()).toBe(4);
    const fresh = await g.user({ roles: ['auditor'] });
    expect(await count()).toBe(5);
    await t.db.models.UserRole.destroy({ where: { user_id: auditor(0), role_id: role.auditor } });
    expect(await count()).toBe(4);
    const trashed = await t.db.models.User.findByPk(auditor(1));
    await trashed?.destroy();
    expect(await count()).toBe(3);
    await trashed?.restore();
    expect(await count()).toBe(4);
    await t.db.models.User.destroy({ where: { id: fresh.id }, force: true });
    expect(await count()).toBe(3);
    // Inactive members still count: the users list filtered by the role shows them.
    await t.db.models.User.update({ is_active: false }, { where: { id: auditor(2) } });
    expect(await count()).toBe(3);
    // A user born in the trash never counts.
    await g.user({ roles: ['auditor'], deleted: true });
    expect(await count()).toBe(3);
  });

  it('reads the same statements with many more roles and members (no statement per role)', async () => {
    const actor = await loadActor(t.db, { userId: adminId });
    const counted = async (run: () => Promise<unknown>) => {
      let count = 0;
      t.db.sequelize.addHook('beforeQuery', 'count-role-reads', () => {
        count += 1;
      });
      try {
        await run();
      } finally {
        t.db.sequelize.removeHook('beforeQuery', 'count-role-reads');
      }
      return count;
    };
    const statements = () =>
      counted(() =>
        listRoles({
          ctx: { db: t.db, config: t.config, actor: actor as NonNullable<typeof actor> },
          input: rolesListQuery.input.parse({ perPage: 100 }),
        }),
      );
    // The whole request, authentication included.
    const request = () => counted(() => admin.get('/api/roles?perPage=100'));
    // A first request may also note the token's use (once a while): not part of the list.
    await request();
    const [before, requestBefore] = [await statements(), await request()];
    const g = given(t.db);
    for (let i = 0; i < 30; i += 1) {
      await g.role(`bulk-role-${i}`, ['users.view']);
      await g.user({ roles: [`bulk-role-${i}`, 'viewer'] });
    }
    expect(await statements()).toBe(before);
    expect(await request()).toBe(requestBefore);
    expect(before).toBe(2);
    process.stdout.write(`GET /roles: ${before} statements, ${requestBefore} for the whole request\n`);
  });

  it('refuses an unknown filter, sort or permission name with 422', async () => {
    const unknownFilter = await admin.get('/api/roles?filters[guard]=web');
    expect(unknownFilter.statusCode).toBe(422);
    expect(unknownFilter.json().code).toBe('VALIDATION_FAILED');
    expect(unknownFilter.json().errors['filters.guard']).toEqual([
      'Unknown filter "guard". Allowed filters: permission, users_count.',
    ]);
    const unknownSort = await admin.get('/api/roles?sort=permissions_count');
    expect(unknownSort.statusCode).toBe(422);
    expect(unknownSort.json().errors.sort).toEqual(['Sort must be one of: name, users_count, created_at.']);
    expect((await admin.get('/api/roles?filters[permission]=roles.fly')).statusCode).toBe(422);
    expect((await admin.get('/api/roles?filters[users_count][from]=-1')).statusCode).toBe(422);
  });

  it('answers 401 without credentials and 403 without roles.view, through both doors', async () => {
    const g = given(t.db);
    const outsider = request(t.app, { token: await g.token((await g.user({ permissions: ['users.view'] })).id) });
    for (const url of ['/api/roles', '/api/roles/export']) {
      expect((await request(t.app).get(url)).statusCode).toBe(401);
      const refused = await outsider.get(url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'roles.view' });
    }
    expect((await outsider.get('/api/trpc/roles.list')).statusCode).toBe(403);
  });

  it('answers the tRPC door with the same list', async () => {
    const input = encodeURIComponent(JSON.stringify({ q: 'auditor' }));
    const res = await admin.get(`/api/trpc/roles.list?input=${input}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.rows.map((r: RoleListRow) => r.name)).toEqual(['auditor']);
  });
});

describe('GET /api/roles/{id}', () => {
  it('counts the role’s users on request, with its counts, version and actions', async () => {
    const res = await admin.get(`/api/roles/${role.exporter}?withCount[]=users&withCount[]=permissions`);
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({
      id: role.exporter,
      name: 'exporter',
      description: null,
      users_count: 1,
      permissions_count: 1,
      actions: { update: { allowed: true }, delete: { allowed: true } },
    });
    expect(res.json().meta.loaded_counts).toEqual(['users_count', 'permissions_count']);
    const plain = (await admin.get(`/api/roles/${role.exporter}`)).json().item;
    expect(plain).not.toHaveProperty('users_count');
    expect(plain.version).toEqual(res.json().item.version);
  });
});

describe('GET /api/roles/{id}: actions a caller may not take at all', () => {
  // The role page hides an action refused as FORBIDDEN (the permission for that kind of change is
  // missing: judged first, so nothing else can be its reason) and shows any other refusal locked.
  it('refuses Edit and Delete as FORBIDDEN, naming the permission, to one holding roles.view alone, at both doors', async () => {
    const g = given(t.db);
    const reader = await g.token((await g.user({ permissions: ['roles.view'] })).id);
    const expected = {
      update: { allowed: false, code: 'FORBIDDEN', message: 'You need the roles.update permission to do this.' },
      delete: { allowed: false, code: 'FORBIDDEN', message: 'You need the roles.delete permission to do this.' },
    };
    for (const id of [role.auditor, (await list('q=admin')).rows[0]?.id as number]) {
      const rest = await request(t.app, { token: reader }).get(`/api/roles/${id}`);
      expect(rest.statusCode).toBe(200);
      expect(rest.json().item.actions).toEqual(expected);
      const input = encodeURIComponent(JSON.stringify({ id }));
      const trpc = await request(t.app, { token: reader }).get(`/api/trpc/roles.show?input=${input}`);
      expect(trpc.json().result.data.item.actions).toEqual(expected);
    }
  });

  it('refuses Delete as FORBIDDEN and Edit as OUTRANKED to an editor without roles.delete, on a role beyond them', async () => {
    const res = await manager.get(`/api/roles/${role.auditor}`);
    expect(res.json().item.actions).toMatchObject({
      update: { allowed: false, code: 'OUTRANKED' },
      delete: { allowed: false, code: 'FORBIDDEN' },
    });
  });
});

describe('GET /api/roles/export', () => {
  it('downloads the roles as CSV in the list’s order, permissions joined', async () => {
    const res = await admin.get('/api/roles/export?filters[permission]=audit.view');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="roles-\d{8}-\d{6}\.csv"$/);
    const lines = res.body.replace(BOM, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('"ID","Name","Description","Permissions","Permission count","Users","Created"');
    expect(lines).toHaveLength(3);
    // admin holds every permission there is.
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d+,"admin","${SEEDED_ROLE_DESCRIPTIONS.admin}",".*audit\\.view.*",${PERMISSIONS.length},1,2024-01-01T00:00:00\\.000Z$`,
      ),
    );
    const auditorUsers = (await list('q=auditor')).rows[0]?.users_count;
    expect(lines[2]).toBe(
      `${role.auditor},"auditor","Reads the trail","audit.view, users.view",2,${auditorUsers},2024-01-05T00:00:00.000Z`,
    );
    const recorded = await t.db.models.AuditLog.findOne({ where: { action: 'roles.export' }, order: [['id', 'DESC']] });
    expect(recorded?.context).toMatchObject({ format: 'csv', filters: { permission: ['audit.view'] } });
  });

  it('downloads JSON with the columns asked for, sorted as asked', async () => {
    const res = await admin.get(
      '/api/roles/export?format=json&sort=users_count&dir=desc&columns[]=name&columns[]=users_count',
    );
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Array<{ name: string; users_count: number }>;
    const listed = await list('sort=users_count&dir=desc&perPage=100');
    expect(rows).toEqual(listed.rows.map((r) => ({ name: r.name, users_count: r.users_count })));
    expect(Object.keys(rows[0] ?? {})).toEqual(['name', 'users_count']);
  });
});
