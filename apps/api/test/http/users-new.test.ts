import { PERMISSIONS, type PermissionOption } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET /users/new: the create form's data, each role and each permission (as a direct grant) marked
 * as the create route would judge it.
 */
let t: TestApp;
let admin: string;
let creator: string;
let viewer: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
  // Creates users and holds what a viewer holds, nothing of a manager's or an administrator's extras.
  creator = await g.token((await g.user({ roles: ['viewer'], permissions: ['users.create'] })).id);
  viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
});
afterAll(() => t.close());

const get = (url: string, token?: string) => request(t.app, token ? { token } : {}).get(url);
type Option = { name: string; assignable: boolean; missing?: string[]; reason?: string };

describe('GET /users/new', () => {
  it('marks every role assignable for a caller who holds every permission, and lets it create inactive', async () => {
    const res = await get('/api/users/new', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.options.roles.map((r: Option) => [r.name, r.assignable])).toEqual([
      ['admin', true],
      ['manager', true],
      ['viewer', true],
    ]);
    expect(body.options.roles[0]).toEqual({ id: expect.any(Number), name: 'admin', assignable: true });
    expect(body.can).toEqual({ setActive: true });
  });

  it('says why a role is not assignable: the permissions the caller lacks, as the create route refuses', async () => {
    const res = await get('/api/users/new', creator);
    expect(res.statusCode).toBe(200);
    const roles: Option[] = res.json().options.roles;
    const byName = Object.fromEntries(roles.map((r) => [r.name, r]));
    expect(byName.viewer).toMatchObject({ assignable: true });
    expect(byName.manager).toMatchObject({
      assignable: false,
      missing: ['users.update', 'users.export', 'users.setActive'],
      reason:
        'You cannot grant or remove the role manager: it carries permissions you do not hold (users.update, users.export, users.setActive).',
    });
    expect(byName.admin?.assignable).toBe(false);
    expect(res.json().can).toEqual({ setActive: false });
    // The write agrees with the form: the role offered as not assignable is refused with that sentence.
    const managerId = (roles.find((r) => r.name === 'manager') as Option & { id: number }).id;
    const write = await request(t.app, { token: creator }).post('/api/users', {
      name: 'Nope',
      email: 'nope@example.com',
      password: 'long-enough-pw',
      password_confirmation: 'long-enough-pw',
      roles_ids: [managerId],
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().detail).toBe(byName.manager?.reason);
  });

  it('offers each permission as a direct grant, as the edit data does, and the write agrees', async () => {
    const everything = (await get('/api/users/new', admin)).json().options.permissions;
    expect(everything).toEqual(PERMISSIONS.map((name) => ({ name, grantable: true })));

    const offered: PermissionOption[] = (await get('/api/users/new', creator)).json().options.permissions;
    expect(offered.map((o) => o.name)).toEqual([...PERMISSIONS]);
    expect(offered).toContainEqual({ name: 'users.view', grantable: true });
    const locked = offered.find((o) => o.name === 'users.delete');
    expect(locked).toEqual({
      name: 'users.delete',
      grantable: false,
      reason: 'You can grant or take away only permissions you hold yourself; you do not hold users.delete.',
    });
    // A permission offered as not grantable is refused with that sentence.
    const write = await request(t.app, { token: creator }).post('/api/users', {
      name: 'Nope',
      email: 'nope-grant@example.com',
      password: 'long-enough-pw',
      password_confirmation: 'long-enough-pw',
      permissions: ['users.view', 'users.delete'],
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ permission: 'users.delete', detail: locked?.reason });
  });

  it('answers the same over tRPC', async () => {
    const res = await get('/api/trpc/users.new', creator);
    expect(res.statusCode).toBe(200);
    const data = res.json().result.data;
    expect(data.options.roles.map((r: Option) => [r.name, r.assignable])).toEqual([
      ['admin', false],
      ['manager', false],
      ['viewer', true],
    ]);
    expect(data.options.permissions).toContainEqual({ name: 'users.view', grantable: true });
    expect(data.options.permissions).toContainEqual(
      expect.objectContaining({ name: 'users.delete', grantable: false }),
    );
  });

  it('needs a caller (401) who may create users (403)', async () => {
    expect((await get('/api/users/new')).statusCode).toBe(401);
    const res = await get('/api/users/new', viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.create' });
  });
});
