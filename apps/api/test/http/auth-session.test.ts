import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '8' });
});
afterAll(() => t.close());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('sessions', () => {
  it('answers /auth/me with the user and capabilities, and 401 problem+json without a session', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const me = await request(t.app, { cookie }).get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: { id: ann.id }, can: { 'users.view': true, 'users.update': false } });
    expect(me.headers['cache-control']).toBe('no-store');
    const anonymous = await request(t.app).get('/api/auth/me');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toContain('application/problem+json');
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('logs out: 204, the session is deleted server side and the cookie cleared', async () => {
    const bob = await given(t.db).user();
    const cookie = await loginCookie(t.app, bob.email, bob.password);
    const res = await request(t.app, { cookie }).post('/api/auth/logout');
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=;.*Expires=Thu, 01 Jan 1970/);
    expect(await t.db.models.Session.count({ where: { user_id: bob.id } })).toBe(0);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'auth.logout', actor_id: bob.id } });
    expect(audit).not.toBeNull();
  });

  it('refuses logout without a session', async () => {
    expect((await request(t.app).post('/api/auth/logout')).statusCode).toBe(401);
  });

  it('expires a session left idle longer than the idle lifetime', async () => {
    const cid = await given(t.db).user();
    const cookie = await loginCookie(t.app, cid.email, cid.password);
    await t.db.models.Session.update({ last_seen_at: minutesAgo(31) }, { where: { user_id: cid.id } });
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
    expect(await t.db.models.Session.count({ where: { user_id: cid.id } })).toBe(0);
  });

  it('keeps a session in use alive, and records its use', async () => {
    const dee = await given(t.db).user();
    const cookie = await loginCookie(t.app, dee.email, dee.password);
    await t.db.models.Session.update({ last_seen_at: minutesAgo(20) }, { where: { user_id: dee.id } });
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(200);
    const row = await t.db.models.Session.findOne({ where: { user_id: dee.id } });
    expect(Date.now() - (row?.last_seen_at.getTime() ?? 0)).toBeLessThan(5_000);
  });

  it('expires a session past its absolute lifetime however busy it is', async () => {
    const eve = await given(t.db).user();
    const cookie = await loginCookie(t.app, eve.email, eve.password);
    await t.db.models.Session.update({ expires_at: minutesAgo(1) }, { where: { user_id: eve.id } });
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('ends the sessions of a user deactivated or deleted, on the very next request', async () => {
    const g = given(t.db);
    const fay = await g.user({ roles: ['viewer'] });
    const gus = await g.user({ roles: ['viewer'] });
    const fayCookie = await loginCookie(t.app, fay.email, fay.password);
    const gusCookie = await loginCookie(t.app, gus.email, gus.password);
    await t.db.models.User.update({ is_active: false }, { where: { id: fay.id } });
    await t.db.models.User.update({ is_active: false }, { where: { id: gus.id } });
    await t.db.models.User.destroy({ where: { id: gus.id } });
    expect((await request(t.app, { cookie: fayCookie }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { cookie: gusCookie }).get('/api/auth/me')).statusCode).toBe(401);
    // Reactivating the account does not revive the old session.
    await t.db.models.User.update({ is_active: true }, { where: { id: fay.id } });
    expect((await request(t.app, { cookie: fayCookie }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('judges permissions on the current roles at every request', async () => {
    const hal = await given(t.db).user({ roles: ['manager'] });
    const cookie = await loginCookie(t.app, hal.email, hal.password);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).json().can['users.update']).toBe(true);
    await t.db.models.UserRole.destroy({ where: { user_id: hal.id } });
    expect((await request(t.app, { cookie }).get('/api/auth/me')).json().can['users.update']).toBe(false);
    const perm = await t.db.models.Permission.findOne({ where: { name: 'users.delete' } });
    await t.db.models.UserPermission.create({ user_id: hal.id, permission_id: perm?.id as number });
    expect((await request(t.app, { cookie }).get('/api/auth/me')).json().can['users.delete']).toBe(true);
  });

  it('answers the tRPC door the same way, with the contract code in error.data', async () => {
    const ivy = await given(t.db).user();
    const cookie = await loginCookie(t.app, ivy.email, ivy.password);
    const ok = await request(t.app, { cookie }).get('/api/trpc/auth.me');
    expect(ok.json().result.data.user.id).toBe(ivy.id);
    const anonymous = await request(t.app).get('/api/trpc/auth.me');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.data).toMatchObject({ code: 'UNAUTHENTICATED', httpStatus: 401 });
  });
});
