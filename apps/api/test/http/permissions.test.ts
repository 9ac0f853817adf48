import { PERMISSION_CATALOGUE, PERMISSIONS, type PermissionRow } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPermissions } from '../../src/modules/permissions/list.handler.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let viewer: string;
let manager: string | undefined;
let auditors: number;

// A delegated administrator: edits roles, but holds only part of the catalogue.
const MANAGER_HOLDS = ['users.view', 'users.update', 'roles.view', 'roles.create', 'roles.update'] as const;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
  auditors = await g.role('auditors', ['audit.view', 'users.view']);
});
afterAll(() => t.close());

const as = (token?: string) => request(t.app, token ? { token } : {});
/** Made when first asked, so the earlier tests' lists of roles stay the seeded ones. */
const managerToken = async () => {
  if (!manager) {
    const g = given(t.db);
    await g.role('role-editors', [...MANAGER_HOLDS]);
    manager = await g.token((await g.user({ roles: ['role-editors'] })).id);
  }
  return manager;
};
const everything = {
  id: 0,
  name: 'everything',
  email: 'everything@example.com',
  permissions: new Set<string>(PERMISSIONS),
};
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
        await listPermissions({ ctx: { db: t.db, actor: everything } });
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
    const rows = (await listPermissions({ ctx: { db: t.db, actor: everything } })).rows;
    expect(rows.find((row) => row.name === 'roles.view')?.roles).toHaveLength(3 + 20);
  });

  it('marks every permission grantable for a caller holding them all', async () => {
    const g = given(t.db);
    const admin = await g.token((await g.user({ roles: ['admin'] })).id);
    const rows = (await as(admin).get('/api/permissions')).json().rows as PermissionRow[];
    expect(rows.every((row) => row.grantable && row.reason === undefined)).toBe(true);
  });

  it('marks the permissions a manager lacks as not grantable, saying why', async () => {
    const token = await managerToken();
    const res = await as(token).get('/api/permissions');
    expect(res.statusCode).toBe(200);
    const rows = res.json().rows as PermissionRow[];
    const grantable = rows.filter((row) => row.grantable).map((row) => row.name);
    expect(grantable).toEqual([...MANAGER_HOLDS]);
    expect(rows.find((row) => row.name === 'users.delete')).toMatchObject({
      grantable: false,
      reason: 'You can grant or take away only permissions you hold yourself; you do not hold users.delete.',
    });
    expect(rows.find((row) => row.name === 'roles.update')).not.toHaveProperty('reason');
    const trpc = await as(token).get('/api/trpc/permissions.list');
    expect(trpc.json().result.data).toEqual(res.json());
  });

  it('decides as the writes do: what a new role may grant is what the catalogue marks grantable', async () => {
    const token = await managerToken();
    const rows = (await as(token).get('/api/permissions')).json().rows as PermissionRow[];
    for (const row of rows) {
      const preview = await as(token).post('/api/roles/preview', { permissions: [row.name] });
      expect(preview.json().refusal.allowed, row.name).toBe(row.grantable);
    }
    const refused = await as(token).post('/api/roles', { name: 'exporters', permissions: ['users.export'] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors.permissions.join(' ')).toContain('users.export');
    const created = await as(token).post('/api/roles', { name: 'editors', permissions: ['users.update'] });
    expect(created.statusCode).toBe(201);
  });
});
