import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { type RawResponse, rawRequest } from '../support/raw-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// Requests go over a real socket (rawRequest): app.inject would resolve `/./` and `/../` itself.
let t: TestApp;
let base: string;
let dist: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  // Every test signs in from the same address; the per-IP login limit is not under test here.
  t = await startTestApp({ WEB_DIST_DIR: dist, LOGIN_MAX_ATTEMPTS_PER_IP: '100000' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const encode = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
/** Changes the first segment after `/api/` (`users`, `trpc`, `auth`). */
const afterApi = (p: string, change: (segment: string) => string) =>
  p.replace(/^\/api\/([^/]+)/, (_, segment: string) => `/api/${change(segment)}`);

/**
 * Ways to write the same API path. Whether a spelling reaches the route is the router's call
 * (Fastify's defaults: case-sensitive, no slash merging, no `;` delimiter, the path decoded as
 * decodeURI decodes it); these tests pin what it decides, and that the checks hold either way.
 */
const SPELLINGS = (
  [
    ['as written', (p) => p, true],
    ['with /api percent-encoded as /%61pi', (p) => p.replace(/^\/api/, '/%61pi'), true],
    ['with every letter and digit percent-encoded', (p) => p.replace(/[A-Za-z0-9]/g, encode), true],
    ['with a query string', (p) => `${p}?x=1`, true],
    [
      'mixed: /%61pi and an encoded letter further in',
      (p) => afterApi(p, (s) => `${s.slice(0, -1)}${encode(s.slice(-1))}`).replace(/^\/api/, '/%61pi'),
      true,
    ],
    ['with a doubled leading slash', (p) => `/${p}`, false],
    ['with a doubled slash after /api', (p) => p.replace(/^\/api\//, '/api//'), false],
    ['with a dot segment', (p) => p.replace(/^\/api\//, '/api/./'), false],
    ['with a dot-dot segment', (p) => afterApi(p, (s) => `${s}/../${s}`), false],
    ['with an encoded dot segment', (p) => p.replace(/^\/api\//, '/api/%2e/'), false],
    ['with an encoded dot-dot segment', (p) => afterApi(p, (s) => `${s}/%2e%2e/${s}`), false],
    ['in upper case', (p) => p.replace(/^\/api/, '/API'), false],
    ['with a trailing slash', (p) => `${p}/`, false],
    ['with a ; parameter in a segment', (p) => afterApi(p, (s) => `${s};x=1`), false],
    ['with a ; parameter at the end', (p) => `${p};x=1`, false],
    ['with an encoded slash after /api', (p) => p.replace(/^\/api\//, '/api%2F'), false],
    ['with an encoded slash further in', (p) => p.replace(/\/([^/]*)$/, '%2F$1'), false],
    ['percent-encoded twice', (p) => p.replace(/^\/api/, '/%2561pi'), false],
    [
      'mixed: /%61pi, a doubled slash, a dot segment, a trailing slash',
      (p) => `${p.replace(/^\/api\//, '/%61pi//./')}/`,
      false,
    ],
  ] satisfies [string, (p: string) => string, boolean][]
).map(([name, spell, reaches]) => ({ name, spell, reaches, example: spell('/api/users/7/active') }));

/** The three state-changing calls of the finding, written canonically; logout last, as it ends the session. */
const mutations = ([first, second]: number[]) => [
  {
    name: 'REST PATCH users/{id}/active',
    method: 'PATCH',
    path: `/api/users/${first}/active`,
    body: { active: false },
    ok: 200,
  },
  {
    name: 'tRPC POST users.setActive',
    method: 'POST',
    path: '/api/trpc/users.setActive',
    body: { id: second, active: false },
    ok: 200,
  },
  { name: 'REST POST auth/logout', method: 'POST', path: '/api/auth/logout', body: undefined, ok: 204 },
];

/** A signed-in administrator and two active users for them to deactivate. */
async function arrange() {
  const g = given(t.db);
  const admin = await g.user({ roles: ['admin'] });
  const targets = [(await g.user()).id, (await g.user()).id];
  return { cookie: await loginCookie(t.app, admin.email, admin.password), targets };
}

async function activeFlags(ids: number[]) {
  const rows = await t.db.models.User.findAll({ where: { id: ids }, order: [['id', 'ASC']] });
  return rows.map((row) => row.is_active);
}

async function expectNothingChanged(cookie: string, targets: number[]) {
  expect(await activeFlags(targets)).toEqual([true, true]);
  expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(200);
}

/** The error code from a problem+json body or from a tRPC error. */
function errorCode(res: RawResponse): unknown {
  const body = res.json() as { code?: string; error?: { data?: { code?: string } } };
  return body.code ?? body.error?.data?.code;
}

function expectNoStore(res: RawResponse, what: string) {
  expect(res.headers['cache-control'], `cache-control of ${what}`).toBe('no-store');
}

const sameOrigin = () => ({ origin: base, 'sec-fetch-site': 'same-origin' });
const CROSS_SITE: [string, Record<string, string>][] = [
  ['Origin: http://evil.test', { origin: 'http://evil.test' }],
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
];

describe('the reported reproductions (an admin signed in, Origin: http://evil.test)', () => {
  const evil = { origin: 'http://evil.test' };

  it('refuses PATCH /%61pi/users/{id}/active with 403, and the user stays active', async () => {
    const { cookie, targets } = await arrange();
    const res = await rawRequest(base, 'PATCH', `/%61pi/users/${targets[0]}/active`, {
      headers: { cookie, ...evil },
      body: { active: false },
    });
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('FORBIDDEN');
    expectNoStore(res, 'the refusal');
    await expectNothingChanged(cookie, targets);
  });

  it('refuses POST /%61pi/trpc/users.setActive with 403, and the user stays active', async () => {
    const { cookie, targets } = await arrange();
    const res = await rawRequest(base, 'POST', '/%61pi/trpc/users.setActive', {
      headers: { cookie, ...evil },
      body: { id: targets[0], active: false },
    });
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('FORBIDDEN');
    expectNoStore(res, 'the refusal');
    await expectNothingChanged(cookie, targets);
  });

  it('refuses POST /%61pi/auth/logout with 403, and the session stays valid', async () => {
    const { cookie, targets } = await arrange();
    const res = await rawRequest(base, 'POST', '/%61pi/auth/logout', { headers: { cookie, ...evil } });
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('FORBIDDEN');
    expectNoStore(res, 'the refusal');
    await expectNothingChanged(cookie, targets);
  });
});

describe.each(SPELLINGS)('a path $name ($example)', ({ spell }) => {
  it.each(CROSS_SITE)(
    'is refused from another site (%s): 403 for all three calls, nothing changed',
    async (_, headers) => {
      const { cookie, targets } = await arrange();
      for (const call of mutations(targets)) {
        const res = await rawRequest(base, call.method, spell(call.path), {
          headers: { cookie, ...headers },
          body: call.body,
        });
        expect(res.status, call.name).toBe(403);
        expect(errorCode(res), call.name).toBe('FORBIDDEN');
        expectNoStore(res, call.name);
      }
      await expectNothingChanged(cookie, targets);
    },
  );
});

describe.each(SPELLINGS.filter((s) => s.reaches))('a path $name ($example) reaches the route', ({ spell }) => {
  it("works from the app's own origin, every answer no-store", async () => {
    const { cookie, targets } = await arrange();
    const me = await rawRequest(base, 'GET', spell('/api/auth/me'), { headers: { cookie } });
    expect(me.status).toBe(200);
    expectNoStore(me, 'auth/me');
    for (const call of mutations(targets)) {
      const res = await rawRequest(base, call.method, spell(call.path), {
        headers: { cookie, ...sameOrigin() },
        body: call.body,
      });
      expect(res.status, call.name).toBe(call.ok);
      expectNoStore(res, call.name);
    }
    expect(await activeFlags(targets)).toEqual([false, false]);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
  });
});

describe.each(SPELLINGS.filter((s) => !s.reaches))('a path $name ($example) reaches no route', ({ spell }) => {
  it("is a 404 (405 if it spells another REST path) even from the app's own origin, no-store, nothing changed", async () => {
    const { cookie, targets } = await arrange();
    for (const call of mutations(targets)) {
      const res = await rawRequest(base, call.method, spell(call.path), {
        headers: { cookie, ...sameOrigin() },
        body: call.body,
      });
      // `/api/users/7%2Factive` decodes to an id of `7/active`, which is not a number: no route.
      expect(res.status, call.name).toBe(404);
      expectNoStore(res, call.name);
    }
    await expectNothingChanged(cookie, targets);
  });
});

describe('answers that no API route gave', () => {
  it.each(['/api/nothing-here', '/%61pi/nothing-here', '/api'])(
    'answers %s as the API does, however spelled: problem+json 404, no-store, not the SPA',
    async (url) => {
      const res = await rawRequest(base, 'GET', url);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expectNoStore(res, url);
    },
  );

  it('refuses a URL the router cannot decode with a problem+json 400, no-store', async () => {
    const res = await rawRequest(base, 'PATCH', '/api/users/%zz/active', { body: { active: false } });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', requestId: expect.any(String) });
    expectNoStore(res, 'the refusal');
  });

  it("leaves the SPA's own cache headers alone: hashed assets immutable, the page no-cache", async () => {
    for (const url of ['/assets/app-abc123.js', '/%61ssets/app-abc123.js']) {
      const res = await rawRequest(base, 'GET', url);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
    }
    for (const url of ['/', '/index.html', '/users/12/edit']) {
      const res = await rawRequest(base, 'GET', url);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });
});
