import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('bearer tokens', () => {
  it('authenticate an external caller and record when they were last used', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    const token = await given(t.db).token(ann.id);
    const res = await request(t.app, { token }).get('/api/auth/me');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(ann.id);
    const row = await t.db.models.ApiToken.findOne({ where: { user_id: ann.id } });
    expect(row?.last_used_at).toBeInstanceOf(Date);
    expect(row?.token_hash).not.toBe(token);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stop working once expired', async () => {
    const bob = await given(t.db).user();
    const token = await given(t.db).token(bob.id, new Date(Date.now() - 1000));
    const res = await request(t.app, { token }).get('/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  it('stop working at once for a deactivated or deleted user', async () => {
    const g = given(t.db);
    const cid = await g.user();
    const dee = await g.user();
    const cidToken = await g.token(cid.id);
    const deeToken = await g.token(dee.id);
    await t.db.models.User.update({ is_active: false }, { where: { id: [cid.id, dee.id] } });
    await t.db.models.User.destroy({ where: { id: dee.id } });
    expect((await request(t.app, { token: cidToken }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { token: deeToken }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('refuse garbage and never fall back to a cookie sent alongside', async () => {
    const eve = await given(t.db).user();
    const cookie = await loginCookie(t.app, eve.email, eve.password);
    expect((await request(t.app, { token: 'uat_not-a-real-token' }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { headers: { authorization: 'Basic abc' } }).get('/api/auth/me')).statusCode).toBe(
      401,
    );
    expect((await request(t.app, { cookie, token: 'uat_wrong' }).get('/api/auth/me')).statusCode).toBe(401);
  });
});

describe('cross-site protection', () => {
  it('refuses a cookie-authenticated POST from another origin', async () => {
    const fay = await given(t.db).user();
    const cookie = await loginCookie(t.app, fay.email, fay.password);
    const evil = await request(t.app, { cookie, headers: { origin: 'https://evil.example' } }).post('/api/auth/logout');
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toMatchObject({ code: 'FORBIDDEN' });
    const fetchMeta = await request(t.app, { cookie, headers: { 'sec-fetch-site': 'cross-site' } }).post(
      '/api/auth/logout',
    );
    expect(fetchMeta.statusCode).toBe(403);
    const trpc = await request(t.app, { cookie, headers: { origin: 'https://evil.example' } }).post(
      '/api/trpc/auth.logout',
    );
    expect(trpc.statusCode).toBe(403);
    // The session survived all three attempts.
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(200);
  });

  it("accepts the same POST from the application's own origin", async () => {
    const gus = await given(t.db).user();
    const cookie = await loginCookie(t.app, gus.email, gus.password);
    const res = await request(t.app, {
      cookie,
      headers: { origin: 'http://localhost:80', host: 'localhost:80', 'sec-fetch-site': 'same-origin' },
    }).post('/api/auth/logout');
    expect(res.statusCode).toBe(204);
  });

  it('refuses a login posted from another site (login CSRF)', async () => {
    const hal = await given(t.db).user();
    const res = await request(t.app, { headers: { origin: 'https://evil.example' } }).post('/api/auth/login', {
      email: hal.email,
      password: hal.password,
    });
    expect(res.statusCode).toBe(403);
  });

  it('lets a bearer-authenticated POST through without any Origin', async () => {
    const ivy = await given(t.db).user();
    const token = await given(t.db).token(ivy.id);
    const res = await request(t.app, { token, headers: { origin: 'https://elsewhere.example' } }).post(
      '/api/auth/logout',
    );
    expect(res.statusCode).toBe(204);
    expect((await request(t.app, { token }).get('/api/auth/me')).statusCode).toBe(200);
  });
});
