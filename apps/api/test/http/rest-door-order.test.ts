import { PERMISSIONS, type Permission } from '@app/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestRoute, restRoutes } from '../../src/rest/routes.js';
import { appRouter } from '../../src/app/app-router.js';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The REST door answers who is calling (401) and whether they may (403) before anything about the
 * request itself: its body (unreadable 400, too large 413, wrong media type 415, not an object
 * 422) or its query string (422). Generated from the route table, so a route added later is
 * covered without an edit here.
 */
const guarded = restRoutes(appRouter).filter((r) => !r.meta.public);
const withBody = (r: RestRoute) => r.rest.method !== 'GET' && r.rest.method !== 'DELETE';
const samplePath = (path: string) => `/api${path.replace(/\{\w+\}/g, '1')}`;
const name = (r: RestRoute) => `${r.rest.method} ${r.rest.path}`;

/** Requests no route could accept, each refused for its shape once the caller is let past the guard. */
const BAD_BODIES: Array<[string, { payload: string; contentType: string }, number]> = [
  ['a JSON array', { payload: '[]', contentType: 'application/json' }, 422],
  ['unreadable JSON', { payload: '{"active":', contentType: 'application/json' }, 400],
  ['a text/plain body', { payload: 'active=false', contentType: 'text/plain' }, 415],
  [
    'a body over 1 MB',
    { payload: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 1) }), contentType: 'application/json' },
    413,
  ],
];
const BAD_QUERY = 'a[b][c][d][e][f]=1';

function badRequests(route: RestRoute): Array<[string, InjectOptions]> {
  const url = samplePath(route.rest.path);
  const method = route.rest.method;
  if (!withBody(route)) return [['a query string 6 levels deep', { method, url: `${url}?${BAD_QUERY}` }]];
  return BAD_BODIES.map(([what, { payload, contentType }]) => [
    what,
    { method, url, payload, headers: { 'content-type': contentType } },
  ]);
}

let t: TestApp;
/** A token for a user holding every permission but one. */
const lacker = new Map<Permission, string>();
/** A token for a user holding none of the permissions an input-dependent route (bulk) could ask for. */
const holdsNoneOf = new Map<string, string>();
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  for (const route of guarded) {
    const { permission, permissionOf } = route.meta;
    if (permission && !lacker.has(permission)) {
      const others = PERMISSIONS.filter((p) => p !== permission);
      lacker.set(permission, await g.token((await g.user({ permissions: others })).id));
    }
    if (permissionOf) {
      const choices = new Set<string>(Object.values(permissionOf.permissions));
      const others = PERMISSIONS.filter((p) => !choices.has(p));
      holdsNoneOf.set(name(route), await g.token((await g.user({ permissions: others })).id));
    }
  }
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
});
afterAll(() => t.close());

const as = (token: string | undefined, options: InjectOptions) =>
  t.app.inject({
    ...options,
    headers: { ...(options.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

describe('the REST door: authentication, then permission, then input', () => {
  it('covers every guarded route', () => {
    expect(guarded.length).toBeGreaterThan(20);
    expect(guarded.some(withBody)).toBe(true);
    expect(guarded.some((r) => r.meta.permissionOf)).toBe(true);
  });

  describe.each(guarded.map((r) => [name(r), r] as const))('%s', (_name, route) => {
    it.each(badRequests(route))('answers 401 to an anonymous caller sending %s', async (_what, options) => {
      const res = await as(undefined, options);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    const permission = route.meta.permission;
    if (permission) {
      it.each(badRequests(route))(
        `answers 403 naming ${permission} to a caller lacking it who sends %s`,
        async (_what, options) => {
          const res = await as(lacker.get(permission), options);
          expect(res.statusCode).toBe(403);
          expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission });
        },
      );
    }

    if (route.meta.permissionOf) {
      it.each(badRequests(route))(
        'answers 403 to a caller holding none of the permissions it could ask for who sends %s',
        async (_what, options) => {
          const res = await as(holdsNoneOf.get(name(route)), options);
          expect(res.statusCode).toBe(403);
          expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
          for (const p of Object.values(route.meta.permissionOf?.permissions ?? {})) {
            expect(res.json().detail).toContain(p);
          }
        },
      );
    }
  });
});

describe('past the guard, the request itself is judged', () => {
  const setActive = guarded.find((r) => r.rest.path === '/users/{id}/active' && r.rest.method === 'PATCH');
  const auditList = guarded.find((r) => r.rest.path === '/audit' && r.rest.method === 'GET');

  it.each(BAD_BODIES)(
    'refuses %s from a caller holding the permission with its own status',
    async (_w, body, status) => {
      if (!setActive) throw new Error('PATCH /users/{id}/active is not in the route table');
      const res = await as(admin, {
        method: 'PATCH',
        url: samplePath(setActive.rest.path),
        payload: body.payload,
        headers: { 'content-type': body.contentType },
      });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
    },
  );

  it('refuses a query string 6 levels deep from a caller holding the permission with 422', async () => {
    if (!auditList) throw new Error('GET /audit is not in the route table');
    const res = await as(admin, { method: 'GET', url: `/api/audit?${BAD_QUERY}` });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('the findings as reported', () => {
  it('answers an anonymous PATCH /api/users/1/active with body [] with 401', async () => {
    const res = await as(undefined, {
      method: 'PATCH',
      url: '/api/users/1/active',
      payload: '[]',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('answers a viewer PATCH /api/users/1/active with body [] with 403 naming users.setActive', async () => {
    const viewer = await given(t.db).token((await given(t.db).user({ roles: ['viewer'] })).id);
    const res = await as(viewer, {
      method: 'PATCH',
      url: '/api/users/1/active',
      payload: '[]',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.setActive' });
  });

  it('answers an anonymous GET /api/audit with a 6-level query string with 401', async () => {
    const res = await as(undefined, { method: 'GET', url: `/api/audit?${BAD_QUERY}` });
    expect(res.statusCode).toBe(401);
  });
});

describe('bulk, whose permission depends on its operation', () => {
  const bulkBody = (operation: unknown) => ({
    method: 'POST' as const,
    url: '/api/users/bulk',
    payload: { operation, ids: [1] },
  });

  it('names the operation’s permission to a caller lacking only that one, on both doors', async () => {
    const token = lacker.get('users.delete');
    const res = await as(token, bulkBody('delete'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.delete' });
    const trpc = await as(token, {
      method: 'POST',
      url: '/api/trpc/users.bulk',
      payload: { operation: 'delete', ids: [1] },
    });
    expect(trpc.statusCode).toBe(403);
    expect(trpc.json().error.data).toMatchObject({ code: 'FORBIDDEN', permission: 'users.delete' });
  });

  it('refuses a caller holding none of its permissions the same way on both doors, whatever the input', async () => {
    const token = holdsNoneOf.get('POST /users/bulk');
    for (const input of [[], { operation: 'delete', ids: [1] }, { operation: 'nonsense' }]) {
      const rest = await as(token, { method: 'POST', url: '/api/users/bulk', payload: input as object });
      const trpc = await as(token, { method: 'POST', url: '/api/trpc/users.bulk', payload: input as object });
      expect(rest.statusCode, JSON.stringify(input)).toBe(403);
      expect(trpc.statusCode, JSON.stringify(input)).toBe(403);
      expect(trpc.json().error.message).toBe(rest.json().detail);
    }
  });

  it('leaves an unknown operation from a caller holding some of its permissions to validation (422)', async () => {
    const res = await as(lacker.get('users.delete'), bulkBody('nonsense'));
    expect(res.statusCode).toBe(422);
  });
});
