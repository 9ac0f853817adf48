import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The scopes a new token may have: those both its owner and the caller hold, as the create route judges them. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const as = (token?: string) => request(t.app, token ? { token } : {});

describe('token scope options', () => {
  it("offers one's own permissions for one's own token, over both doors", async () => {
    const me = await given(t.db).user({ roles: ['viewer'] });
    const token = await given(t.db).token(me.id);
    const res = await as(token).get('/api/tokens/options');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ scopes: ['users.view', 'roles.view'] });
    expect((await as(token).get('/api/trpc/tokens.options')).json().result.data).toEqual(res.json());
    expect((await as().get('/api/tokens/options')).statusCode).toBe(401);
  });

  it("offers for another user only what both hold: never a permission of the caller's the owner lacks", async () => {
    const caller = await given(t.db).user({
      permissions: ['tokens.manage', 'users.view', 'roles.view', 'users.export'],
    });
    const owner = await given(t.db).user({ roles: ['viewer'] });
    const token = await given(t.db).token(caller.id);
    const res = await as(token).get(`/api/users/${owner.id}/tokens/options`);
    expect(res.statusCode).toBe(200);
    // users.export and tokens.manage are the caller's alone: not offered, and refused on create.
    expect(res.json()).toEqual({ scopes: ['users.view', 'roles.view'] });
    const make = (scopes: string[]) => as(token).post(`/api/users/${owner.id}/tokens`, { name: 'x', scopes });
    expect((await make(['users.export'])).statusCode).toBe(422);
    expect((await make(['users.view', 'roles.view'])).statusCode).toBe(201);
    const viaTrpc = await as(token).get(
      `/api/trpc/tokens.optionsFor?input=${encodeURIComponent(JSON.stringify({ id: owner.id }))}`,
    );
    expect(viaTrpc.json().result.data).toEqual({ scopes: ['users.view', 'roles.view'] });
  });

  it('never offers what the owner holds but the caller lacks: a narrowed token passes on only its own scopes', async () => {
    const me = await given(t.db).user({ roles: ['viewer'] });
    const full = await given(t.db).token(me.id);
    const made = await as(full).post('/api/tokens', { name: 'narrow', scopes: ['users.view'] });
    expect(made.statusCode).toBe(201);
    const narrow: string = made.json().token;
    // The owner (me) holds roles.view; the caller (the narrowed token) does not.
    expect((await as(narrow).get('/api/tokens/options')).json()).toEqual({ scopes: ['users.view'] });
    expect((await as(narrow).post('/api/tokens', { name: 'wider', scopes: ['roles.view'] })).statusCode).toBe(422);
  });

  it('refuses options for a user who holds a permission the caller lacks (the ceiling: 403 OUTRANKED)', async () => {
    const caller = await given(t.db).user({ permissions: ['tokens.manage', 'users.view'] });
    const owner = await given(t.db).user({ roles: ['viewer'] });
    const res = await as(await given(t.db).token(caller.id)).get(`/api/users/${owner.id}/tokens/options`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('OUTRANKED');
  });

  it('needs tokens.manage (403) and stays within the privilege ceiling (403 OUTRANKED), 404 for nobody', async () => {
    const admin = await given(t.db).user({ roles: ['admin'] });
    const viewer = await given(t.db).token((await given(t.db).user({ roles: ['viewer'] })).id);
    expect((await as(viewer).get(`/api/users/${admin.id}/tokens/options`)).statusCode).toBe(403);
    const keeper = await given(t.db).token((await given(t.db).user({ permissions: ['tokens.manage'] })).id);
    const outranked = await as(keeper).get(`/api/users/${admin.id}/tokens/options`);
    expect(outranked.statusCode).toBe(403);
    expect(outranked.json().code).toBe('OUTRANKED');
    expect((await as(keeper).get('/api/users/999999/tokens/options')).statusCode).toBe(404);
    expect((await as().get(`/api/users/${admin.id}/tokens/options`)).statusCode).toBe(401);
  });
});
