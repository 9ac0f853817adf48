import { PERMISSIONS, SEEDED_ROLE_DESCRIPTIONS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { insertUsers } from '../support/users-fixture.js';

let t: TestApp;
let admin: string;
let viewer: string;
let manager: string;
let ada: number;
let gone: number;

beforeAll(async () => {
  t = await startTestApp();
  [ada, gone] = (await insertUsers(t.db, [
    {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      is_active: true,
      created_at: '2024-01-10T08:00:00Z',
      roles: ['admin', 'viewer'],
    },
    {
      name: 'Gone Away',
      email: 'gone@example.com',
      is_active: false,
      created_at: '2024-04-01T00:00:00Z',
      deleted_at: '2024-05-01T00:00:00Z',
    },
  ])) as [number, number];
  const g = given(t.db);
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
  viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
  manager = await g.token((await g.user({ roles: ['manager'] })).id);
});
afterAll(() => t.close());

const get = (url: string, token = admin) => request(t.app, { token }).get(url);

describe('GET /users/{id}', () => {
  it('answers the item and empty meta by default, never the password hash', async () => {
    const res = await get(`/api/users/${ada}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      item: {
        id: ada,
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        is_active: true,
        created_at: '2024-01-10T08:00:00.000Z',
        updated_at: expect.any(String),
        deleted_at: null,
        // Never invited (SPEC §14), never signed in, no second factor.
        invitation: null,
        // No custom attribute declared, so none held.
        attributes: {},
        last_sign_in_at: null,
        two_factor: { enrolled: false, required: false },
        actions: expect.objectContaining({ update: { allowed: true }, setActive: { allowed: true } }),
        sections: { sessions: true, tokens: true, history: true },
      },
      meta: { loaded_relations: [], loaded_counts: [], loaded_appends: [] },
    });
    expect(res.body).not.toMatch(/password|hash|scrypt/);
  });

  it('loads roles, counts roles and appends computed fields when asked', async () => {
    const res = await get(
      `/api/users/${ada}?with[]=roles&withCount[]=roles&append[]=is_admin&append[]=permission_names`,
    );
    const { item, meta } = res.json();
    expect(item.roles).toEqual([
      { id: expect.any(Number), name: 'admin' },
      { id: expect.any(Number), name: 'viewer' },
    ]);
    expect(item.roles_count).toBe(2);
    expect(item.is_admin).toBe(true);
    expect(item.permission_names).toHaveLength(PERMISSIONS.length);
    expect(meta).toEqual({
      loaded_relations: ['roles'],
      loaded_counts: ['roles_count'],
      loaded_appends: ['is_admin', 'permission_names'],
    });
  });

  it('refuses relations, counts and appends it does not allow, at their paths', async () => {
    const relation = await get(`/api/users/${ada}?with[]=password`);
    expect(relation.statusCode).toBe(422);
    expect(relation.json()).toMatchObject({
      code: 'RELATION_NOT_ALLOWED',
      errors: { 'with.0': [expect.stringContaining('roles')] },
    });
    const count = await get(`/api/users/${ada}?withCount[]=roles&withCount[]=sessions`);
    expect(count.json()).toMatchObject({ code: 'COUNT_NOT_ALLOWED', errors: { 'withCount.1': expect.any(Array) } });
    const append = await get(`/api/users/${ada}?append[]=password_hash`);
    expect(append.json()).toMatchObject({ code: 'APPEND_NOT_ALLOWED', errors: { 'append.0': expect.any(Array) } });
  });

  it('answers 404 for a missing user and for a deleted one without withTrashed', async () => {
    const missing = await get('/api/users/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get(`/api/users/${gone}`)).statusCode).toBe(404);
    // An id is digits: anything else names no user, nor any route.
    expect((await get('/api/users/abc')).statusCode).toBe(404);
  });

  it('shows a deleted user with withTrashed to those who may see the trash', async () => {
    const res = await get(`/api/users/${gone}?withTrashed=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json().item.deleted_at).toBe('2024-05-01T00:00:00.000Z');
    const refused = await get(`/api/users/${gone}?withTrashed=true`, viewer);
    expect(refused.statusCode).toBe(403);
  });
});

describe('the sections of a user page, decided on the server', () => {
  it('gives sessions and tokens to those who manage them, history to audit readers', async () => {
    expect((await get(`/api/users/${ada}`, viewer)).json().item.sections).toEqual({
      sessions: false,
      tokens: false,
      history: false,
    });
    expect((await get(`/api/users/${ada}`, manager)).json().item.sections).toEqual({
      sessions: true,
      tokens: false,
      history: false,
    });
  });

  it('gives no sessions or tokens for a user in the trash: they can neither sign in nor use a token', async () => {
    const res = await get(`/api/users/${gone}?withTrashed=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json().item.sections).toEqual({ sessions: false, tokens: false, history: true });
  });
});

describe('GET /users/{id}/edit', () => {
  it('answers the form data with role ids, an opaque version and record capabilities', async () => {
    const res = await get(`/api/users/${ada}/edit`, manager);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.item).toMatchObject({
      id: ada,
      name: 'Ada Lovelace',
      roles_ids: [expect.any(Number), expect.any(Number)],
    });
    expect(body.item.version).toMatch(/^[\w-]+$/);
    expect(body.options.roles.map((r: { name: string; assignable: boolean }) => [r.name, r.assignable])).toEqual([
      ['admin', false],
      ['manager', true],
      ['viewer', true],
    ]);
    // Ada is an administrator: the manager may open the form data but change nothing.
    expect(body.can).toEqual({ update: false, setActive: false, delete: false, restore: false, forceDelete: false });
    expect(body.item.actions.update).toEqual({
      allowed: false,
      code: 'OUTRANKED',
      message:
        'Ada Lovelace holds permissions you do not have (users.create, users.delete, users.restore, users.forceDelete, roles.create, roles.update, roles.delete, audit.view, tokens.manage, webhooks.manage, jobs.view, auth.manage, attributes.manage, attributes.sensitive.view): only someone who holds all of them can change this account.',
    });
  });

  it("says what the caller may do to a user it outranks or matches, by the server's own rules", async () => {
    const g = given(t.db);
    const peer = (await g.user({ roles: ['manager'], name: 'Peer Manager' })).id;
    const body = (await get(`/api/users/${peer}/edit`, manager)).json();
    expect(body.can).toEqual({ update: true, setActive: true, delete: false, restore: false, forceDelete: false });
    expect(body.item.actions.delete).toEqual({
      allowed: false,
      code: 'FORBIDDEN',
      message: 'You need the users.delete permission to do this.',
    });
    const own = (await get(`/api/users/${peer}/edit`)).json();
    expect(own.item.actions.delete).toMatchObject({ allowed: false, code: 'NOT_INACTIVE' });
    expect(own.item.actions.restore).toMatchObject({ allowed: false, code: 'NOT_DELETED' });
  });

  it('needs users.update', async () => {
    const res = await get(`/api/users/${ada}/edit`, viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json().permission).toBe('users.update');
  });

  it('answers 404 for a deleted user', async () => {
    expect((await get(`/api/users/${gone}/edit`)).statusCode).toBe(404);
  });
});

describe('GET /roles/{id}', () => {
  it('shows a role, with its permissions and their count when asked', async () => {
    const role = await t.db.models.Role.findOne({ where: { name: 'manager' } });
    const plain = await get(`/api/roles/${role?.id}`, viewer);
    expect(plain.json()).toEqual({
      item: {
        id: role?.id,
        name: 'manager',
        description: SEEDED_ROLE_DESCRIPTIONS.manager,
        guard_name: 'web',
        require_two_factor: false,
        version: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        // A viewer may do neither, and is told why.
        actions: {
          update: { allowed: false, code: 'FORBIDDEN', message: 'You need the roles.update permission to do this.' },
          delete: { allowed: false, code: 'FORBIDDEN', message: 'You need the roles.delete permission to do this.' },
        },
      },
      meta: { loaded_relations: [], loaded_counts: [], loaded_appends: [] },
    });
    const full = await get(`/api/roles/${role?.id}?with[]=permissions&withCount[]=permissions`, viewer);
    expect(full.json().item.permissions.map((p: { name: string }) => p.name)).toEqual([
      'roles.view',
      'users.export',
      'users.setActive',
      'users.update',
      'users.view',
    ]);
    expect(full.json().item.permissions_count).toBe(5);
    expect(full.json().meta).toEqual({
      loaded_relations: ['permissions'],
      loaded_counts: ['permissions_count'],
      loaded_appends: [],
    });
  });

  it('refuses other relations and answers 404 for a missing role', async () => {
    const role = await t.db.models.Role.findOne({ where: { name: 'admin' } });
    const bad = await get(`/api/roles/${role?.id}?with[]=users`);
    expect(bad.json()).toMatchObject({ code: 'RELATION_NOT_ALLOWED', errors: { 'with.0': expect.any(Array) } });
    expect((await get(`/api/roles/${role?.id}?withCount[]=roles`)).json().code).toBe('COUNT_NOT_ALLOWED');
    expect((await get('/api/roles/9999')).statusCode).toBe(404);
  });
});
