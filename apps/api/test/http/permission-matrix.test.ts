import { PERMISSIONS, type Permission } from '@app/contracts';
import type { AnyProcedure } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/rest/routes.js';
import { appRouter } from '../../src/app/app-router.js';
import type { ProcedureMeta } from '../../src/trpc/init.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Generated from the router itself: every procedure that exists, through both doors, is
 * checked for 401 without credentials, 403 naming its permission for a caller lacking it, and
 * neither for a caller holding it. Routes added later are covered without editing this file.
 */
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).map(
  ([path, p]) => ({
    path,
    type: p._def.type as 'query' | 'mutation' | 'subscription',
    meta: (p._def.meta ?? {}) as ProcedureMeta,
  }),
);
const guarded = procedures.filter((p) => !p.meta.public);
const rest = restRoutes(appRouter).filter((r) => !r.meta.public);

let t: TestApp;
/** A token for a user holding exactly one permission, and for one holding all but that one. */
const holder = new Map<Permission, string>();
const lacker = new Map<Permission, string>();
let nobody: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  for (const permission of PERMISSIONS) {
    holder.set(permission, await g.token((await g.user({ permissions: [permission] })).id));
    const others = PERMISSIONS.filter((p) => p !== permission);
    lacker.set(permission, await g.token((await g.user({ permissions: others })).id));
  }
  nobody = await g.token((await g.user()).id);
});
afterAll(() => t.close());

const samplePath = (path: string) => path.replace(/\{\w+\}/g, '1');

function callRest(route: (typeof rest)[number], token?: string, body: Record<string, unknown> = {}) {
  const r = request(t.app, token ? { token } : {});
  const url = `/api${samplePath(route.rest.path)}`;
  switch (route.rest.method) {
    case 'GET':
      return r.get(url);
    case 'DELETE':
      return r.delete(url);
    case 'POST':
      return r.post(url, body);
    case 'PUT':
      return r.put(url, body);
    case 'PATCH':
      return r.patch(url, body);
  }
}

function callTrpc(proc: (typeof procedures)[number], token?: string, body: Record<string, unknown> = {}) {
  const r = request(t.app, token ? { token } : {});
  const input = encodeURIComponent(JSON.stringify(body));
  return proc.type === 'query'
    ? r.get(`/api/trpc/${proc.path}?input=${input}`)
    : r.post(`/api/trpc/${proc.path}`, body);
}

/**
 * The permission cases of a procedure: one with an empty input when it has a fixed permission
 * (or none), one per input value when its permission depends on the input (bulk operations).
 */
function permissionCases(meta: ProcedureMeta): Array<{ permission?: Permission; body: Record<string, unknown> }> {
  if (meta.permissionOf) {
    const { field, permissions } = meta.permissionOf;
    return Object.entries(permissions).map(([value, permission]) => ({ permission, body: { [field]: value } }));
  }
  return [{ ...(meta.permission ? { permission: meta.permission } : {}), body: {} }];
}

describe('the permission matrix', () => {
  it('covers every procedure, each either public or guarded', () => {
    expect(procedures.length).toBeGreaterThan(0);
    for (const p of procedures) expect(p.meta.public || p.meta.authenticated, p.path).toBe(true);
    process.stdout.write(
      `permission matrix: ${guarded.length} tRPC procedures + ${rest.length} REST routes × 3 cases = ${(guarded.length + rest.length) * 3} checks\n`,
    );
  });

  describe.each(rest.map((r) => [`${r.rest.method} ${r.rest.path}`, r] as const))('REST %s', (_name, route) => {
    it('answers 401 without credentials', async () => {
      const res = await callRest(route);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHENTICATED');
    });

    it('answers 403 naming the permission to a caller lacking it (or allows any signed-in caller)', async () => {
      for (const { permission, body } of permissionCases(route.meta)) {
        const res = await callRest(route, permission ? lacker.get(permission) : nobody, body);
        if (permission) {
          expect(res.statusCode, JSON.stringify(body)).toBe(403);
          expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission });
          expect(res.json().detail).toContain(permission);
        } else {
          expect([401, 403]).not.toContain(res.statusCode);
        }
      }
    });

    it('lets a caller holding the permission past the guard', async () => {
      for (const { permission, body } of permissionCases(route.meta)) {
        const res = await callRest(route, permission ? holder.get(permission) : nobody, body);
        expect(res.statusCode, JSON.stringify(body)).not.toBe(401);
        // Past the guard, the record may still refuse: user 1 holds a permission the holder lacks.
        if (res.statusCode === 403) expect(res.json().code).toBe('OUTRANKED');
      }
    });
  });

  describe.each(guarded.map((p) => [p.path, p] as const))('tRPC %s', (_name, proc) => {
    it('answers UNAUTHENTICATED without credentials', async () => {
      const res = await callTrpc(proc);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.data.code).toBe('UNAUTHENTICATED');
    });

    it('answers FORBIDDEN naming the permission to a caller lacking it', async () => {
      for (const { permission, body } of permissionCases(proc.meta)) {
        const res = await callTrpc(proc, permission ? lacker.get(permission) : nobody, body);
        if (permission) {
          expect(res.statusCode).toBe(403);
          expect(res.json().error.data).toMatchObject({ code: 'FORBIDDEN', permission });
        } else {
          expect([401, 403]).not.toContain(res.statusCode);
        }
      }
    });

    it('lets a caller holding the permission past the guard', async () => {
      for (const { permission, body } of permissionCases(proc.meta)) {
        const res = await callTrpc(proc, permission ? holder.get(permission) : nobody, body);
        expect(res.statusCode).not.toBe(401);
        if (res.statusCode === 403) expect(res.json().error.data.code).toBe('OUTRANKED');
      }
    });
  });
});
