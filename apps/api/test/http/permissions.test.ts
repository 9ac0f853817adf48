import { PERMISSION_CATALOGUE, PERMISSIONS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPermissions } from '../../src/modules/permissions/list.handler.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let viewer: string;
let auditors: number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
  auditors = await g.role('auditors', ['audit.view', 'users.view']);
});
afterAll(() => t.close());

const as = (token?: string) => request(t.app, token ? { token } : {});
const roleIds = async () =>
  Object.fromEntries((await t.db.models.Role.findAll()).map((role) => [role.name, role.id])) as Record<string, number>;

describe('GET /permissions', () => {
  it('lists every permission in the contract’s order with its resource, action and description', async () => {
    const res = await as(viewer).get('/api/permissions');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ total: PERMISSIONS.length });
    expect(body.rows.map((row: { name: string }) => row.name)).toEqual([...PERMISSIONS]);
    expect(body.rows[0]).toMatchObject({
      name: 'users.view',
      resource: 'users',
      action: 'view',
      description: PERMISSION_CATALOGUE['users.view'].description,
    });
    expect(body.rows.find((row: { name: string }) => row.name === 'users.forceDelete')).toMatchObject({
      resource: 'users',
      action: 'forceDelete',
    });
  });

  it('names the roles granting each permission, by name', async () => {
    const ids = await roleIds();
    const rows = (await as(viewer).get('/api/permissions')).json().rows as Array<{ name: string; roles: unknown }>;
    const rolesOf = (name: string) => rows.find((row) => row.name === name)?.roles;
    expect(rolesOf('users.view')).toEqual([
      { id: ids.admin, name: 'admin' },
      { id: auditors, name: 'auditors' },
      { id: ids.manager, name: 'manager' },
      { id: ids.viewer, name: 'viewer' },
    ]);
    expect(rolesOf('audit.view')).toEqual([
      { id: ids.admin, name: 'admin' },
      { id: auditors, name: 'auditors' },
    ]);
    // The administrator role holds every permission, the role editor's own included.
    expect(rolesOf('roles.delete')).toEqual([{ id: ids.admin, name: 'admin' }]);
  });

  it('answers the same through tRPC', async () => {
    const rest = await as(viewer).get('/api/permissions');
    const trpc = await as(viewer).get('/api/trpc/permissions.list');
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toEqual(rest.json());
  });

  it('answers 401 without credentials and 403 naming roles.view without it', async () => {
    expect((await as().get('/api/permissions')).statusCode).toBe(401);
    const g = given(t.db);
    const reader = await g.token((await g.user({ permissions: ['users.view'] })).id);
    const res = await as(reader).get('/api/permissions');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'roles.view' });
    const trpc = await as(reader).get('/api/trpc/permissions.list');
    expect(trpc.json().error.data).toMatchObject({ code: 'FORBIDDEN', permission: 'roles.view' });
  });

  it('reads as many statements with twenty more roles as with a few', async () => {
    const statements = async () => {
      let count = 0;
      t.db.sequelize.addHook('beforeQuery', 'count-permission-reads', () => {
        count += 1;
      });
      try {
        await listPermissions({ ctx: { db: t.db } });
      } finally {
        t.db.sequelize.removeHook('beforeQuery', 'count-permission-reads');
      }
      return count;
    };
    const before = await statements();
    const g = given(t.db);
    for (let i = 0; i < 20; i++) await g.role(`extra-${i}`, ['users.view', 'roles.view']);
    expect(await statements()).toBe(before);
    expect(before).toBeLessThanOrEqual(3);
    const rows = (await listPermissions({ ctx: { db: t.db } })).rows;
    expect(rows.find((row) => row.name === 'roles.view')?.roles).toHaveLength(3 + 20);
  });
});
