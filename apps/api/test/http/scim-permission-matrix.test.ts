import { PERMISSIONS, type Permission } from '@app/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCIM_PATH_PREFIX } from '../../src/rest/openapi-scim.js';
import type { OpenApiDocument } from '../../src/rest/openapi.js';
import { given } from '../support/given.js';
import { scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The permission matrix of the SCIM door (permission-matrix.test.ts covers the doors built from
 * the router; this one is no procedure). Each route, with a change that needs exactly one
 * permission, answers 401 without a token, 403 naming the permission to a token holding every
 * other one, and neither to a token holding only it. The table must list every SCIM operation of
 * the OpenAPI document, so a route added to the door and the document is added here too.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Case {
  method: Method;
  /** The document's path; its `{id}` is `target`. */
  path: string;
  /** `user`/`inactive user`/`group`: a fresh record with no roles or permissions (no ceiling in the way); else the id itself. */
  target?: string;
  /** What this case changes, when a route needs different permissions for different changes. */
  what?: string;
  /** null: any valid token. */
  permission: Permission | null;
  /** Held beside `permission` by both tokens: what the change needs besides the one judged here. */
  with?: Permission[];
  /** Instead of one permission: any of these lets the token in, and one holding none is refused. */
  anyOf?: Permission[];
  body?: (n: number, group: { name: string }) => unknown;
}

const patch = (op: Record<string, unknown>) => ({ schemas: [PATCH], Operations: [op] });

const CASES: Case[] = [
  { method: 'GET', path: '/ServiceProviderConfig', permission: null },
  { method: 'GET', path: '/ResourceTypes', permission: null },
  { method: 'GET', path: '/ResourceTypes/{id}', target: 'User', permission: null },
  { method: 'GET', path: '/Schemas', permission: null },
  { method: 'GET', path: '/Schemas/{id}', target: USER, permission: null },
  { method: 'POST', path: '/.search', permission: null, anyOf: ['users.view', 'roles.view'], body: () => ({}) },
  { method: 'POST', path: '/Users/.search', permission: 'users.view', body: () => ({ count: 1 }) },
  { method: 'POST', path: '/Groups/.search', permission: 'roles.view', body: () => ({ count: 1 }) },
  { method: 'GET', path: '/Users', permission: 'users.view' },
  { method: 'GET', path: '/Users/{id}', target: 'user', permission: 'users.view' },
  {
    method: 'POST',
    path: '/Users',
    permission: 'users.create',
    body: (n) => ({ schemas: [USER], userName: `matrix-${n}@example.com` }),
  },
  {
    method: 'PUT',
    path: '/Users/{id}',
    target: 'user',
    permission: 'users.update',
    body: (n) => ({ schemas: [USER], userName: `renamed-${n}@example.com` }),
  },
  {
    method: 'PATCH',
    path: '/Users/{id}',
    target: 'user',
    what: 'the name',
    permission: 'users.update',
    body: (n) => patch({ op: 'replace', path: 'name.formatted', value: `Renamed ${n}` }),
  },
  {
    method: 'PATCH',
    path: '/Users/{id}',
    target: 'user',
    what: 'active only',
    permission: 'users.setActive',
    body: () => patch({ op: 'Replace', value: { active: 'False' } }),
  },
  // A user is deactivated before it is deleted (the product's rule), so the target is inactive.
  { method: 'DELETE', path: '/Users/{id}', target: 'inactive user', permission: 'users.delete' },
  { method: 'GET', path: '/Groups', permission: 'roles.view' },
  { method: 'GET', path: '/Groups/{id}', target: 'group', permission: 'roles.view' },
  {
    method: 'POST',
    path: '/Groups',
    permission: 'roles.create',
    body: (n) => ({ schemas: [GROUP], displayName: `Matrix Group ${n}` }),
  },
  {
    method: 'PUT',
    path: '/Groups/{id}',
    target: 'group',
    what: 'a rename',
    permission: 'roles.update',
    // The answer shows the group: reading it needs roles.view whatever the change.
    with: ['roles.view'],
    body: (n) => ({ schemas: [GROUP], displayName: `Renamed Group ${n}` }),
  },
  {
    method: 'PUT',
    path: '/Groups/{id}',
    target: 'group',
    what: 'the members',
    permission: 'users.update',
    // A PUT replaces the group, its name included: roles.update even for the name it already has.
    with: ['roles.view', 'roles.update'],
    body: (_n, group) => ({ schemas: [GROUP], displayName: group.name, members: [] }),
  },
  {
    method: 'PATCH',
    path: '/Groups/{id}',
    target: 'group',
    what: 'a rename',
    permission: 'roles.update',
    with: ['roles.view'],
    body: (n) => patch({ op: 'replace', path: 'displayName', value: `Patched Group ${n}` }),
  },
  {
    method: 'PATCH',
    path: '/Groups/{id}',
    target: 'group',
    what: 'the members',
    permission: 'users.update',
    with: ['roles.view'],
    body: () => patch({ op: 'add', path: 'members', value: [{ value: String(memberId) }] }),
  },
  { method: 'DELETE', path: '/Groups/{id}', target: 'group', permission: 'roles.delete' },
];

let t: TestApp;
let memberId: number;
/** Tokens by case: one holding the case's permission (and its `with`), one holding every other. */
const holder = new Map<string, string>();
const lacker = new Map<string, string>();
const keyOf = (c: Pick<Case, 'permission' | 'with'>, permission = c.permission) =>
  [permission, ...(c.with ?? [])].join('+');
let nobody: string;
let made = 0;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const needed = CASES.flatMap((c) => [
    ...(c.permission ? [{ permission: c.permission, with: c.with ?? [] }] : []),
    ...(c.anyOf ?? []).map((permission) => ({ permission, with: [] })),
  ]);
  for (const need of needed) {
    const key = keyOf(need, need.permission);
    if (holder.has(key)) continue;
    holder.set(key, await g.token((await g.user({ permissions: [need.permission, ...need.with] })).id));
    const others = PERMISSIONS.filter((p) => p !== need.permission);
    lacker.set(key, await g.token((await g.user({ permissions: others })).id));
  }
  nobody = await g.token((await g.user()).id);
  memberId = (await g.user()).id;
});
afterAll(() => t.close());

/** Sends the case as `token` to fresh records, so each answer is about the permission alone. */
async function send(c: Case, token: string | null): Promise<LightMyRequestResponse> {
  made += 1;
  const name = `Matrix Target ${made}`;
  const id =
    c.target === 'user' || c.target === 'inactive user'
      ? String((await given(t.db).user({ active: c.target === 'user' })).id)
      : c.target === 'group'
        ? `g${await given(t.db).role(name, [])}`
        : c.target;
  const path = id === undefined ? c.path : c.path.replace('{id}', id);
  const client = scimClient(t.app, token);
  if (c.method === 'GET') return client.get(path);
  if (c.method === 'DELETE') return client.delete(path);
  return client[c.method.toLowerCase() as 'post'](path, c.body?.(made, { name }) ?? {});
}

const label = (c: Case) => `${c.method} ${c.path}${c.what ? ` (${c.what})` : ''}`;

describe('the SCIM permission matrix', () => {
  it('deletes an active user only with users.setActive too: it is deactivated first', async () => {
    const g = given(t.db);
    const deleteOnly = await g.token((await g.user({ permissions: ['users.delete'] })).id);
    const both = await g.token((await g.user({ permissions: ['users.delete', 'users.setActive'] })).id);
    const target = (await g.user()).id;
    const refused = await scimClient(t.app, deleteOnly).delete(`/Users/${target}`);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().detail).toContain('users.setActive');
    expect((await scimClient(t.app, both).delete(`/Users/${target}`)).statusCode).toBe(204);
  });

  it('lists every SCIM operation of the OpenAPI document', async () => {
    const doc: OpenApiDocument = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(SCIM_PATH_PREFIX))
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    const covered = CASES.map((c) => `${c.method} ${SCIM_PATH_PREFIX}${c.path}`);
    expect([...new Set(covered)].sort()).toEqual(documented.sort());
  });

  describe.each(CASES.map((c) => [label(c), c] as const))('%s', (_name, c) => {
    it('answers 401 in SCIM shape without a token', async () => {
      const res = await send(c, null);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ schemas: [ERROR], status: '401' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('answers 403 naming the permission to a token lacking it (or lets any token in)', async () => {
      if (c.anyOf) {
        const refused = await send(c, nobody);
        expect(refused.statusCode, refused.body).toBe(403);
        expect(refused.json()).toMatchObject({ schemas: [ERROR], status: '403' });
        return;
      }
      const res = await send(c, c.permission ? (lacker.get(keyOf(c)) as string) : nobody);
      if (c.permission) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ schemas: [ERROR], status: '403' });
        expect(res.json().detail).toContain(c.permission);
      } else {
        expect(res.statusCode, res.body).toBe(200);
      }
    });

    it('lets a token holding only that permission through', async () => {
      for (const permission of c.anyOf ?? []) {
        const res = await send(c, holder.get(keyOf({ permission: null }, permission)) as string);
        expect(res.statusCode, `${permission}: ${res.body}`).toBe(200);
      }
      if (c.anyOf) return;
      const res = await send(c, c.permission ? (holder.get(keyOf(c)) as string) : nobody);
      expect([401, 403], res.body).not.toContain(res.statusCode);
      expect(res.statusCode, res.body).toBeLessThan(300);
    });
  });
});
