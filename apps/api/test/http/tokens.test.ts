import { TOKENS_PER_USER } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiToken } from '../../src/auth/api-tokens.js';
import { given } from '../support/given.js';
import { type Caller, loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Own API tokens (GET/POST/DELETE /tokens): secrets shown once, scopes never beyond the owner, revocation at once. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const trpcMutation = (who: Caller, path: string, input: unknown) =>
  request(t.app, who).post(`/api/trpc/${path}`, input);

/** A user signed in through the login form: the session cookie, as the SPA holds it. */
async function signedIn(spec: Parameters<ReturnType<typeof given>['user']>[0]) {
  const user = await given(t.db).user(spec);
  return { ...user, cookie: await loginCookie(t.app, user.email, user.password) };
}

/** Makes a token through POST /tokens as `who`; returns the answer's item and secret. */
async function made(who: Caller, body: Record<string, unknown>) {
  const res = await request(t.app, who).post('/api/tokens', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { item: { id: number; scopes: string[] | null }; token: string };
}

describe('making a token', () => {
  it('answers 201 with the secret once; the list and the database never show it', async () => {
    const ann = await signedIn({ roles: ['viewer'], name: 'Ann Tokens' });
    const res = await request(t.app, { cookie: ann.cookie }).post('/api/tokens', {
      name: ' payroll-sync ',
      scopes: ['users.view'],
    });
    expect(res.statusCode).toBe(201);
    const { item, token } = res.json();
    expect(token).toMatch(/^uat_[\w-]{43}$/);
    expect(item).toMatchObject({
      name: 'payroll-sync',
      scopes: ['users.view'],
      expires_at: null,
      expired: false,
      last_used_at: null,
      last_used_ip: null,
      created_by: { id: ann.id, name: 'Ann Tokens' },
    });
    const list = await request(t.app, { cookie: ann.cookie }).get('/api/tokens');
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([item]);
    expect(list.body).not.toContain(token);
    expect(list.body).not.toContain('token_hash');
    const row = await t.db.models.ApiToken.findByPk(item.id);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row?.get())).not.toContain(token);
  });

  it('answers the same through the tRPC door, and the new token works at once', async () => {
    const bob = await signedIn({ roles: ['viewer'] });
    const res = await trpcMutation({ cookie: bob.cookie }, 'tokens.create', { name: 'from the SPA' });
    expect(res.statusCode).toBe(200);
    const { item, token } = res.json().result.data;
    expect(item).toMatchObject({ name: 'from the SPA', scopes: null });
    const me = await request(t.app, { token }).get('/api/auth/me');
    expect(me.json()).toMatchObject({ user: { id: bob.id }, can: { 'users.view': true, 'users.update': false } });
  });

  it('refuses a scope the owner does not hold, naming it (422)', async () => {
    const cid = await signedIn({ roles: ['viewer'] });
    const res = await request(t.app, { cookie: cid.cookie }).post('/api/tokens', {
      name: 'too much',
      scopes: ['users.view', 'users.delete', 'audit.view'],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().errors.scopes[0]).toMatch(/users\.delete, audit\.view/);
    expect(res.json().errors.scopes[0]).not.toMatch(/users\.view/);
    const unknown = await request(t.app, { cookie: cid.cookie }).post('/api/tokens', {
      name: 'x',
      scopes: ['users.fly'],
    });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['scopes.0']);
    expect(await t.db.models.ApiToken.count({ where: { user_id: cid.id } })).toBe(0);
  });

  it('refuses an expiry in the past or a missing name', async () => {
    const dee = await signedIn({ roles: ['viewer'] });
    const res = await request(t.app, { cookie: dee.cookie }).post('/api/tokens', {
      name: '',
      expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['expires_at', 'name']);
  });

  it(`keeps at most ${TOKENS_PER_USER} tokens per user`, async () => {
    const eve = await signedIn({ roles: ['viewer'] });
    for (let i = 1; i < TOKENS_PER_USER; i++) {
      await mintApiToken(t.db, { userId: eve.id, name: `t${i}`, expiresAt: null });
    }
    await made({ cookie: eve.cookie }, { name: 'the last one' });
    const res = await request(t.app, { cookie: eve.cookie }).post('/api/tokens', { name: 'one too many' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain(`${TOKENS_PER_USER} API tokens`);
  });

  it('writes a token.create audit row naming the token and its scopes, never the secret', async () => {
    const fay = await signedIn({ roles: ['viewer'] });
    const { item, token } = await made({ cookie: fay.cookie }, { name: 'audited', scopes: ['roles.view'] });
    const row = await t.db.models.AuditLog.findOne({ where: { action: 'token.create', actor_id: fay.id } });
    expect(row).toMatchObject({ target_type: 'user', target_ids: [fay.id], via: 'session' });
    expect(row?.context).toEqual({ tokenId: item.id, name: 'audited', expiresAt: null, scopes: ['roles.view'] });
    expect(JSON.stringify(row?.get())).not.toContain(token);
  });
});

describe('what a token may do', () => {
  it('acts only within its scopes: 403 naming the permission outside them', async () => {
    const admin = await signedIn({ roles: ['admin'] });
    const { token } = await made({ cookie: admin.cookie }, { name: 'reader', scopes: ['users.view'] });
    expect((await request(t.app, { token }).get('/api/users')).statusCode).toBe(200);
    const create = await request(t.app, { token }).post('/api/users', { name: 'X' });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.create' });
    expect((await request(t.app, { token }).get('/api/audit')).json().permission).toBe('audit.view');
    const me = (await request(t.app, { token }).get('/api/auth/me')).json();
    expect(Object.entries(me.can).filter(([, held]) => held)).toEqual([['users.view', true]]);
  });

  it('loses a permission on the very next request once its owner loses it, scoped or not', async () => {
    const gus = await signedIn({ permissions: ['users.view', 'users.export', 'roles.view'] });
    const all = (await made({ cookie: gus.cookie }, { name: 'all' })).token;
    const some = (await made({ cookie: gus.cookie }, { name: 'some', scopes: ['users.view', 'roles.view'] })).token;
    for (const token of [all, some]) expect((await request(t.app, { token }).get('/api/users')).statusCode).toBe(200);
    const usersView = await t.db.models.Permission.findOne({ where: { name: 'users.view' } });
    await t.db.models.UserPermission.destroy({ where: { user_id: gus.id, permission_id: usersView?.id } });
    for (const token of [all, some]) {
      const res = await request(t.app, { token }).get('/api/users');
      expect(res.statusCode).toBe(403);
      expect(res.json().permission).toBe('users.view');
    }
    // What the owner still holds and the scope allows still works.
    expect((await request(t.app, { token: some }).get('/api/roles/1')).statusCode).toBe(200);
    // Regaining it gives it back: the scope is a ceiling, judged at each request.
    await t.db.models.UserPermission.create({ user_id: gus.id, permission_id: usersView?.id as number });
    expect((await request(t.app, { token: some }).get('/api/users')).statusCode).toBe(200);
  });

  it('cannot mint a broader token when it is itself narrowed', async () => {
    const hal = await signedIn({ roles: ['admin'] });
    const narrow = (await made({ cookie: hal.cookie }, { name: 'narrow', scopes: ['users.view', 'roles.view'] })).token;
    const broader = await request(t.app, { token: narrow }).post('/api/tokens', {
      name: 'broader',
      scopes: ['users.view', 'users.delete'],
    });
    expect(broader.statusCode).toBe(422);
    expect(broader.json().errors.scopes[0]).toMatch(/^The token you are using does not hold users\.delete/);
    // Asking for no scopes passes its own narrowing on, never "all of the owner's".
    const child = await made({ token: narrow }, { name: 'child' });
    expect(child.item.scopes).toEqual(['users.view', 'roles.view']);
    expect((await request(t.app, { token: child.token }).post('/api/users', {})).statusCode).toBe(403);
    expect(
      (await request(t.app, { token: child.token }).post('/api/tokens', { name: 'grandchild' })).json().item,
    ).toMatchObject({ scopes: ['users.view', 'roles.view'] });
    // An unnarrowed token of the same owner makes unnarrowed tokens.
    const wide = (await made({ cookie: hal.cookie }, { name: 'wide' })).token;
    expect((await made({ token: wide }, { name: 'wide child' })).item.scopes).toBeNull();
  });

  it('records when and from which IP it was last used; a new IP at once', async () => {
    const ivy = await signedIn({ roles: ['viewer'] });
    const { item, token } = await made({ cookie: ivy.cookie }, { name: 'tracked' });
    const from = (ip: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: ip,
      });
    expect((await from('203.0.113.7')).statusCode).toBe(200);
    const listed = async () =>
      (
        (await request(t.app, { cookie: ivy.cookie }).get('/api/tokens')).json().items as Array<Record<string, unknown>>
      ).find((i) => i.id === item.id);
    const first = await listed();
    expect(first?.last_used_ip).toBe('203.0.113.7');
    expect(Date.now() - Date.parse(String(first?.last_used_at))).toBeLessThan(10_000);
    expect((await from('198.51.100.2')).statusCode).toBe(200);
    expect((await listed())?.last_used_ip).toBe('198.51.100.2');
  });

  it('stops working once expired, and is listed as expired', async () => {
    const jo = await signedIn({ roles: ['viewer'] });
    const { item, token } = await made(
      {
        cookie: jo.cookie,
      },
      { name: 'short-lived', expires_at: new Date(Date.now() + 3_600_000).toISOString() },
    );
    expect((await request(t.app, { token }).get('/api/auth/me')).statusCode).toBe(200);
    await t.db.models.ApiToken.update({ expires_at: new Date(Date.now() - 1_000) }, { where: { id: item.id } });
    const res = await request(t.app, { token }).get('/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
    const listed = (await request(t.app, { cookie: jo.cookie }).get('/api/tokens')).json().items;
    expect(listed[0]).toMatchObject({ id: item.id, expired: true });
  });
});

describe('revoking a token', () => {
  it('takes effect on the very next request, and writes token.revoke', async () => {
    const kit = await signedIn({ roles: ['viewer'] });
    const { item, token } = await made({ cookie: kit.cookie }, { name: 'to revoke', scopes: ['users.view'] });
    expect((await request(t.app, { token }).get('/api/users')).statusCode).toBe(200);
    const res = await request(t.app, { cookie: kit.cookie }).delete(`/api/tokens/${item.id}`);
    expect(res.statusCode).toBe(204);
    expect((await request(t.app, { token }).get('/api/users')).statusCode).toBe(401);
    expect(await t.db.models.ApiToken.findByPk(item.id)).toBeNull();
    const row = await t.db.models.AuditLog.findOne({ where: { action: 'token.revoke', actor_id: kit.id } });
    expect(row).toMatchObject({
      target_ids: [kit.id],
      context: { tokenId: item.id, name: 'to revoke', scopes: ['users.view'] },
    });
    expect((await request(t.app, { cookie: kit.cookie }).delete(`/api/tokens/${item.id}`)).statusCode).toBe(404);
  });

  it('lets a token revoke itself, through either door', async () => {
    const lea = await signedIn({ roles: ['viewer'] });
    const one = await made({ cookie: lea.cookie }, { name: 'self' });
    expect((await request(t.app, { token: one.token }).delete(`/api/tokens/${one.item.id}`)).statusCode).toBe(204);
    expect((await request(t.app, { token: one.token }).get('/api/auth/me')).statusCode).toBe(401);
    const two = await made({ cookie: lea.cookie }, { name: 'via trpc' });
    const res = await trpcMutation({ token: two.token }, 'tokens.revoke', { tokenId: two.item.id });
    expect(res.statusCode).toBe(200);
    expect((await request(t.app, { token: two.token }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it("cannot reach another user's token through the own-token routes (404)", async () => {
    const max = await signedIn({ roles: ['admin'] });
    const ned = await signedIn({ roles: ['viewer'] });
    const { item, token } = await made({ cookie: ned.cookie }, { name: 'not yours' });
    expect((await request(t.app, { cookie: max.cookie }).delete(`/api/tokens/${item.id}`)).statusCode).toBe(404);
    expect((await request(t.app, { token }).get('/api/auth/me')).statusCode).toBe(200);
    const mine = (await request(t.app, { cookie: max.cookie }).get('/api/tokens')).json().items;
    expect(mine.map((i: { id: number }) => i.id)).not.toContain(item.id);
  });
});

describe('without credentials', () => {
  it('answers 401 on every own-token route', async () => {
    for (const res of [
      await request(t.app).get('/api/tokens'),
      await request(t.app).post('/api/tokens', { name: 'x' }),
      await request(t.app).delete('/api/tokens/1'),
      await request(t.app).get('/api/trpc/tokens.list'),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });
});
