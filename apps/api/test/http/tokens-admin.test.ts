import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { type Caller, loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Other users' API tokens (/users/{id}/tokens): tokens.manage and the privilege ceiling. */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await given(t.db).token((await given(t.db).user({ roles: ['admin'], name: 'Ada Admin' })).id);
});
afterAll(() => t.close());

const as = (token: string) => request(t.app, { token });
const trpc = (who: Caller, path: string, input: unknown) => request(t.app, who).post(`/api/trpc/${path}`, input);

describe("another user's tokens", () => {
  it('lets an administrator list, make and revoke them; the token acts as its owner', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    const res = await as(admin).post(`/api/users/${ann.id}/tokens`, { name: 'for ann', scopes: ['users.view'] });
    expect(res.statusCode).toBe(201);
    const { item, token } = res.json();
    expect(item).toMatchObject({ name: 'for ann', scopes: ['users.view'], created_by: { name: 'Ada Admin' } });
    const me = (await as(token).get('/api/auth/me')).json();
    expect(me.user.id).toBe(ann.id);
    expect(me.can).toMatchObject({ 'users.view': true, 'roles.view': false });
    const list = await as(admin).get(`/api/users/${ann.id}/tokens`);
    const { last_used_at: _at, last_used_ip: _ip, ...rest } = item;
    expect(list.json().items).toEqual([{ ...rest, last_used_at: expect.any(String), last_used_ip: '127.0.0.1' }]);
    expect(list.body).not.toContain(token);
    expect((await as(admin).delete(`/api/users/${ann.id}/tokens/${item.id}`)).statusCode).toBe(204);
    expect((await as(token).get('/api/auth/me')).statusCode).toBe(401);
    const audits = await t.db.models.AuditLog.findAll({
      where: { action: ['token.create', 'token.revoke'], target_type: 'user' },
      order: [['id', 'ASC']],
    });
    const annRows = audits.filter((a) => a.target_ids.includes(ann.id));
    expect(annRows.map((a) => a.action)).toEqual(['token.create', 'token.revoke']);
    expect(annRows[0]?.context).toMatchObject({ tokenId: item.id, name: 'for ann', scopes: ['users.view'] });
    expect(annRows.map((a) => a.via)).toEqual(['token', 'token']);
    expect(JSON.stringify(annRows.map((a) => a.get()))).not.toContain(token);
  });

  it('refuses a scope the owner lacks, naming the owner and the permission, though the caller holds it', async () => {
    const bob = await given(t.db).user({ roles: ['viewer'], name: 'Bob Viewer' });
    const res = await as(admin).post(`/api/users/${bob.id}/tokens`, { name: 'x', scopes: ['users.update'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.scopes).toEqual([
      'Bob Viewer does not hold users.update: a token can only be narrowed to permissions its owner holds.',
    ]);
  });

  it('refuses without tokens.manage (403 FORBIDDEN), whatever else the caller holds', async () => {
    const cid = await given(t.db).user({ roles: ['viewer'] });
    const manager = await given(t.db).token((await given(t.db).user({ roles: ['manager'] })).id);
    for (const res of [
      await as(manager).get(`/api/users/${cid.id}/tokens`),
      await as(manager).post(`/api/users/${cid.id}/tokens`, { name: 'x' }),
      await as(manager).delete(`/api/users/${cid.id}/tokens/1`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'tokens.manage' });
    }
    const viaTrpc = await trpc({ token: manager }, 'tokens.createFor', { id: cid.id, name: 'x' });
    expect(viaTrpc.statusCode).toBe(403);
    expect(viaTrpc.json().error.data).toMatchObject({ code: 'FORBIDDEN', permission: 'tokens.manage' });
  });

  it('refuses for a user who outranks the caller (403 OUTRANKED), on both doors', async () => {
    const keeper = await given(t.db).token(
      (await given(t.db).user({ permissions: ['tokens.manage', 'users.view', 'roles.view'] })).id,
    );
    const boss = await given(t.db).user({ roles: ['manager'] });
    const bossToken = await given(t.db).token(boss.id);
    const bossTokenId = (await t.db.models.ApiToken.findOne({ where: { user_id: boss.id } }))?.id;
    for (const res of [
      await as(keeper).get(`/api/users/${boss.id}/tokens`),
      await as(keeper).post(`/api/users/${boss.id}/tokens`, { name: 'x', scopes: ['users.view'] }),
      await as(keeper).delete(`/api/users/${boss.id}/tokens/${bossTokenId}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('OUTRANKED');
      expect(res.json().detail).toMatch(/users\.update/);
    }
    const viaTrpc = await trpc({ token: keeper }, 'tokens.revokeFor', { id: boss.id, tokenId: bossTokenId });
    expect(viaTrpc.json().error.data.code).toBe('OUTRANKED');
    expect((await as(bossToken).get('/api/auth/me')).statusCode).toBe(200);
    // A user the caller does not outrank is within reach.
    const peer = await given(t.db).user({ roles: ['viewer'] });
    expect((await as(keeper).post(`/api/users/${peer.id}/tokens`, { name: 'ok' })).statusCode).toBe(201);
  });

  it('judges the ceiling against a narrowed token, not its owner', async () => {
    const root = await given(t.db).user({ roles: ['admin'] });
    const cookie = await loginCookie(t.app, root.email, root.password);
    const narrowed = await request(t.app, { cookie }).post('/api/tokens', {
      name: 'token keeper',
      scopes: ['tokens.manage', 'users.view', 'roles.view'],
    });
    const keeper = narrowed.json().token as string;
    const manager = await given(t.db).user({ roles: ['manager'] });
    expect((await as(keeper).get(`/api/users/${manager.id}/tokens`)).json().code).toBe('OUTRANKED');
    // For a user within reach, asking for no scopes gives what both the maker and the owner hold.
    const viewer = await given(t.db).user({ roles: ['viewer'] });
    const child = await as(keeper).post(`/api/users/${viewer.id}/tokens`, { name: 'child' });
    expect(child.statusCode).toBe(201);
    expect(child.json().item.scopes).toEqual(['users.view', 'roles.view']);
  });

  it('answers 404 for a user who is deleted or does not exist, and for a token of someone else', async () => {
    const gone = await given(t.db).user({ roles: ['viewer'], deleted: true });
    const dee = await given(t.db).user({ roles: ['viewer'] });
    const eve = await given(t.db).user({ roles: ['viewer'] });
    await given(t.db).token(eve.id);
    const eveTokenId = (await t.db.models.ApiToken.findOne({ where: { user_id: eve.id } }))?.id;
    for (const res of [
      await as(admin).get(`/api/users/${gone.id}/tokens`),
      await as(admin).post(`/api/users/${gone.id}/tokens`, { name: 'x' }),
      await as(admin).get('/api/users/999999/tokens'),
      await as(admin).delete(`/api/users/${dee.id}/tokens/${eveTokenId}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect(await t.db.models.ApiToken.count({ where: { user_id: eve.id } })).toBe(1);
  });

  it('makes none for an inactive user (it could not work, and would outlive the deactivation)', async () => {
    const fay = await given(t.db).user({ roles: ['viewer'], active: false, name: 'Fay Inactive' });
    const res = await as(admin).post(`/api/users/${fay.id}/tokens`, { name: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('Fay Inactive is inactive: a token would not work, so none is made.');
  });

  it('answers 401 without credentials', async () => {
    expect((await request(t.app).get('/api/users/1/tokens')).statusCode).toBe(401);
    expect((await request(t.app).post('/api/users/1/tokens', { name: 'x' })).statusCode).toBe(401);
    expect((await request(t.app).delete('/api/users/1/tokens/1')).statusCode).toBe(401);
  });
});
