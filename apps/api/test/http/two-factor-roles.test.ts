import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const trpcError = (res: LightMyRequestResponse) => res.json().error?.data?.code;

let t: TestApp;
let admin: string;
let roleId: number;

beforeAll(async () => {
  t = await startTestApp();
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = await loginCookie(t.app, a.email, a.password);
  const created = await request(t.app, { cookie: admin }).post('/api/roles', {
    name: 'helpdesk',
    permissions: ['users.view'],
    require_two_factor: true,
  });
  expect(created.statusCode).toBe(201);
  roleId = created.json().item.id;
});
afterAll(() => t.close());

describe('roles that require a second factor', () => {
  it('carry require_two_factor on create, show, list and update', async () => {
    const shown = await request(t.app, { cookie: admin }).get(`/api/roles/${roleId}`);
    expect(shown.json().item.require_two_factor).toBe(true);
    const list = await request(t.app, { cookie: admin }).get('/api/roles');
    const rows: Array<{ name: string; require_two_factor: boolean }> = list.json().rows;
    expect(rows.find((r) => r.name === 'helpdesk')?.require_two_factor).toBe(true);
    expect(rows.find((r) => r.name === 'viewer')?.require_two_factor).toBe(false);
    const other = await request(t.app, { cookie: admin }).post('/api/roles', { name: 'plain', permissions: [] });
    expect(other.json().item.require_two_factor).toBe(false);
    const { id, version } = other.json().item;
    const updated = await request(t.app, { cookie: admin }).put(`/api/roles/${id}`, {
      name: 'plain',
      permissions: [],
      version,
      require_two_factor: true,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().item.require_two_factor).toBe(true);
    // Left out, it stays.
    const again = await request(t.app, { cookie: admin }).put(`/api/roles/${id}`, {
      name: 'plain-again',
      permissions: [],
      version: updated.json().item.version,
    });
    expect(again.json().item.require_two_factor).toBe(true);
  });

  it('hold a member without a second factor at enrolment, on both doors, until they set one up', async () => {
    const ann = await given(t.db).user({ roles: ['helpdesk'] });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const me = await request(t.app, { cookie }).get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().two_factor).toEqual({ enrolled: false, required: true });

    const users = await request(t.app, { cookie }).get('/api/users');
    expect(users.statusCode).toBe(403);
    expect(users.json().code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    expect((await request(t.app, { cookie }).get('/api/account')).json().code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    const trpc = await t.app.inject({ method: 'GET', url: '/api/trpc/users.list', headers: { cookie } });
    expect(trpc.statusCode).toBe(403);
    expect(trpcError(trpc)).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    const trpcMe = await t.app.inject({ method: 'GET', url: '/api/trpc/auth.me', headers: { cookie } });
    expect(trpcMe.statusCode).toBe(200);

    const setup = await request(t.app, { cookie }).post('/api/account/two-factor');
    expect(setup.statusCode).toBe(200);
    const confirm = await request(t.app, { cookie }).post('/api/account/two-factor/confirm', {
      code: codeAt(setup.json().secret, Date.now()),
    });
    expect(confirm.statusCode).toBe(200);
    expect((await request(t.app, { cookie }).get('/api/users')).statusCode).toBe(200);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).json().two_factor).toEqual({
      enrolled: true,
      required: true,
    });
  });

  it('let a held session sign out', async () => {
    const ann = await given(t.db).user({ roles: ['helpdesk'] });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    expect((await request(t.app, { cookie }).post('/api/auth/logout')).statusCode).toBe(204);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('leave API tokens alone', async () => {
    const ann = await given(t.db).user({ roles: ['helpdesk'] });
    const token = await given(t.db).token(ann.id);
    expect((await request(t.app, { token }).get('/api/users')).statusCode).toBe(200);
  });

  it('are met by a sign-in whose identity provider asked for a second factor', async () => {
    const ann = await given(t.db).user({ roles: ['helpdesk'] });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    expect((await request(t.app, { cookie }).get('/api/users')).statusCode).toBe(403);
    // As single sign-on's openSession(ctx, id, { secondFactor: 'provider' }) records it.
    await t.db.sequelize.query("UPDATE sessions SET second_factor = 'provider' WHERE user_id = :id", {
      replacements: { id: ann.id },
    });
    expect((await request(t.app, { cookie }).get('/api/users')).statusCode).toBe(200);
  });

  it('hold at once when a role starts requiring it, and let go when it stops', async () => {
    const bob = await given(t.db).user({ roles: ['viewer'] });
    const cookie = await loginCookie(t.app, bob.email, bob.password);
    expect((await request(t.app, { cookie }).get('/api/users')).statusCode).toBe(200);
    const viewer = (await request(t.app, { cookie: admin }).get('/api/roles'))
      .json()
      .rows.find((r: { name: string }) => r.name === 'viewer');
    const shown = (await request(t.app, { cookie: admin }).get(`/api/roles/${viewer.id}?with[]=permissions`)).json();
    const put = (require_two_factor: boolean, version: string) =>
      request(t.app, { cookie: admin }).put(`/api/roles/${viewer.id}`, {
        name: 'viewer',
        permissions: shown.item.permissions.map((p: { name: string }) => p.name),
        version,
        require_two_factor,
      });
    const on = await put(true, shown.item.version);
    expect(on.statusCode).toBe(200);
    expect((await request(t.app, { cookie }).get('/api/users')).json().code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    expect((await put(false, on.json().item.version)).statusCode).toBe(200);
    expect((await request(t.app, { cookie }).get('/api/users')).statusCode).toBe(200);
  });
});
