import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { roleIdOf } from '../support/users-fixture.js';

let t: TestApp;
let admin: string;
let viewer: string;
let exporters: number;
let ana: number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
  viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
  exporters = await g.role('exporters', ['users.view', 'users.export']);
  // Ana holds users.view through two roles, users.export through a role and directly, audit.view only directly.
  ana = (await g.user({ name: 'Ana', roles: ['viewer', 'exporters'], permissions: ['users.export', 'audit.view'] })).id;
});
afterAll(() => t.close());

const as = (token?: string) => request(t.app, token ? { token } : {});
const trpcAccess = (token: string, id: number) =>
  as(token).get(`/api/trpc/users.access?input=${encodeURIComponent(JSON.stringify({ id }))}`);

describe('GET /users/{id}/access', () => {
  it('lists each permission the user holds, in the contract’s order, with every source of it', async () => {
    const viewerRole = await roleIdOf(t.db, 'viewer');
    const res = await as(viewer).get(`/api/users/${ana}/access`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      item: {
        id: ana,
        permissions: [
          {
            name: 'users.view',
            sources: [
              { kind: 'role', id: exporters, name: 'exporters' },
              { kind: 'role', id: viewerRole, name: 'viewer' },
            ],
          },
          { name: 'users.export', sources: [{ kind: 'role', id: exporters, name: 'exporters' }, { kind: 'direct' }] },
          { name: 'roles.view', sources: [{ kind: 'role', id: viewerRole, name: 'viewer' }] },
          { name: 'audit.view', sources: [{ kind: 'direct' }] },
        ],
      },
    });
  });

  it('holds what the user page says the user holds', async () => {
    const shown = await as(admin).get(`/api/users/${ana}?append[]=permission_names`);
    const access = await as(admin).get(`/api/users/${ana}/access`);
    const names = access.json().item.permissions.map((p: { name: string }) => p.name);
    expect([...names].sort()).toEqual(shown.json().item.permission_names);
  });

  it('answers an empty list for a user holding nothing', async () => {
    const nobody = (await given(t.db).user()).id;
    expect((await as(viewer).get(`/api/users/${nobody}/access`)).json()).toEqual({
      item: { id: nobody, permissions: [] },
    });
  });

  it('answers the same through tRPC', async () => {
    const rest = await as(viewer).get(`/api/users/${ana}/access`);
    const trpc = await trpcAccess(viewer, ana);
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toEqual(rest.json());
  });

  it('answers 401 without credentials and 403 naming users.view without it', async () => {
    expect((await as().get(`/api/users/${ana}/access`)).statusCode).toBe(401);
    const g = given(t.db);
    const outsider = await g.token((await g.user({ permissions: ['roles.view'] })).id);
    const res = await as(outsider).get(`/api/users/${ana}/access`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.view' });
    expect((await trpcAccess(outsider, ana)).json().error.data).toMatchObject({
      code: 'FORBIDDEN',
      permission: 'users.view',
    });
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await as(viewer).get('/api/users/999999/access');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('shows a trashed user only to those who may see the trash, and is not found for anyone else', async () => {
    const g = given(t.db);
    const gone = (await g.user({ roles: ['viewer'], deleted: true })).id;
    const restorer = await g.token((await g.user({ permissions: ['users.view', 'users.restore'] })).id);
    const seen = await as(restorer).get(`/api/users/${gone}/access`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().item.permissions.map((p: { name: string }) => p.name)).toEqual(['users.view', 'roles.view']);
    expect((await trpcAccess(restorer, gone)).statusCode).toBe(200);
    const hidden = await as(viewer).get(`/api/users/${gone}/access`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('NOT_FOUND');
    expect((await trpcAccess(viewer, gone)).statusCode).toBe(404);
  });
});
