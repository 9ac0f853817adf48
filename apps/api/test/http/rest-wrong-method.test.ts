import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiOperation } from '../../src/rest/openapi.js';
import { restRoutes } from '../../src/rest/routes.js';
import { appRouter } from '../../src/app/app-router.js';
import { rawRequest } from '../support/raw-http.js';
import { buildTestApp, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A REST path that exists answers a method it lacks with 405 and `Allow` naming the methods it
 * has (RFC 9110 §15.5.6), before any credentials are asked for; a path that does not exist stays
 * 404. Generated from the route table; requests go over a real socket, since `app.inject` cannot
 * send every method (QUERY, PROPFIND).
 */
const routes = restRoutes(appRouter);
const samplePath = (p: string) => `/api${p.replace(/\{\w+\}/g, '1')}`;

const doc = buildOpenApiDocument(appRouter, { version: '0.0.0' });
const operationOf = (method: string, path: string) =>
  doc.paths[`/api${path}`]?.[method.toLowerCase() as 'get'] as OpenApiOperation;

/**
 * Whether the document types a path parameter as a whole number (`{id}`, `{tokenId}`,
 * `{deliveryId}`): then it is digits in the route too. Any other (a session's handle) is one segment.
 */
const isWholeNumber = (method: string, path: string, name: string) =>
  operationOf(method, path).parameters?.find((p) => p.in === 'path' && p.name === name)?.schema.type === 'integer';

/** Which methods the table routes at a concrete path: every template it matches, params included. */
function allowedAt(concrete: string): string[] {
  const methods = routes
    .filter((r) => {
      const param = (_: string, name: string) => (isWholeNumber(r.rest.method, r.rest.path, name) ? '\\d+' : '[^/]+');
      return new RegExp(`^/api${r.rest.path.replace(/\{(\w+)\}/g, param)}$`).test(concrete);
    })
    .map((r) => r.rest.method);
  return [...new Set(methods)].sort();
}

const paths = [...new Set(routes.map((r) => samplePath(r.rest.path)))];
const TRIED = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY', 'PROPFIND'];
const allowOf = (header: string | string[] | undefined) =>
  String(header ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();

let t: TestApp;
let base: string;
let dist: string;
/** The same API without a built SPA: no wildcard route takes GET and HEAD, every miss is a 404 route. */
let bare: FastifyInstance;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-dist-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  t = await startTestApp({ WEB_DIST_DIR: dist });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  bare = await buildTestApp({ config: { ...t.config, WEB_DIST_DIR: '/nonexistent' }, db: t.db });
  await bare.ready();
});
afterAll(async () => {
  await bare.close();
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('a method a REST path lacks', () => {
  it('covers every path of the route table', () => {
    expect(paths.length).toBeGreaterThan(20);
  });

  describe.each(paths.map((p) => [p, allowedAt(p)] as const))('%s (%s)', (concrete, allowed) => {
    const lacking = TRIED.filter((m) => !allowed.includes(m));

    it.each(lacking)('answers %s with 405 and exactly its Allow, before authentication', async (method) => {
      const res = await rawRequest(base, method, concrete);
      expect(res.status).toBe(405);
      expect(allowOf(res.headers.allow)).toEqual(allowed);
      expect(res.headers['cache-control']).toBe('no-store');
      if (method === 'HEAD') return;
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    });

    it.each(allowed)('lets %s reach the route (neither 404 nor 405)', async (method) => {
      const res = await rawRequest(base, method, concrete);
      expect([404, 405]).not.toContain(res.status);
    });
  });
});

describe('fixed paths beside /users/{id} (Schemathesis: PUT /api/users/bulk was 422 about the id)', () => {
  it.each([
    ['PUT', '/api/users/bulk', 'POST'],
    ['GET', '/api/users/bulk', 'POST'],
    ['DELETE', '/api/users/bulk', 'POST'],
    ['PATCH', '/api/users/bulk', 'POST'],
    ['PUT', '/api/users/selected', 'GET'],
    ['DELETE', '/api/users/export', 'GET'],
  ])('%s %s is 405 with Allow: %s', async (method, url, allow) => {
    // A body where the method takes one, as Schemathesis sent it.
    const body =
      method === 'PUT' || method === 'PATCH' ? { operation: 'setActive', ids: [1], active: false } : undefined;
    const res = await rawRequest(base, method, url, body ? { body } : {});
    expect(res.status).toBe(405);
    expect(allowOf(res.headers.allow)).toEqual([allow]);
  });

  it('answers a user path whose id is not a number with 404: no such user, no such route', async () => {
    const res = await rawRequest(base, 'GET', '/api/users/abc');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
  });
});

describe('fixed paths beside /tokens/{tokenId} (Schemathesis: OPTIONS /api/tokens/options answered Allow: GET, DELETE)', () => {
  it.each([
    ['OPTIONS', '/api/tokens/options'],
    ['DELETE', '/api/tokens/options'],
    ['PUT', '/api/tokens/options'],
    ['OPTIONS', '/api/users/1/tokens/options'],
    ['DELETE', '/api/users/1/tokens/options'],
  ])('%s %s is 405 with Allow: GET', async (method, url) => {
    const res = await rawRequest(base, method, url);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });
});

describe('path parameters in the route', () => {
  const params = routes.flatMap((r) =>
    [...r.rest.path.matchAll(/\{(\w+)\}/g)].map((m) => [r.rest.method, r.rest.path, m[1] as string] as const),
  );

  it('covers every whole-number parameter and the session handles', () => {
    const names = new Set(params.map(([, , name]) => name));
    for (const name of ['id', 'tokenId', 'deliveryId', 'sessionId']) expect(names).toContain(name);
  });

  it.each(params)(
    '%s %s: {%s} not a number reaches the route only when the document allows text',
    async (method, path, name) => {
      const concrete = `/api${path.replace(/\{(\w+)\}/g, (_, n: string) => (n === name ? 'options' : '1'))}`;
      const res = await rawRequest(base, method, concrete);
      if (isWholeNumber(method, path, name)) {
        // No route at all, or another path's methods: never this route's 401 or 422.
        expect([404, 405]).toContain(res.status);
        expect(res.headers.allow ?? '').not.toContain(method);
      } else {
        expect(res.status).toBe(401);
      }
    },
  );
});

describe('the findings as reported', () => {
  it.each([
    ['PATCH', '/api/users', 'GET, POST'],
    ['PUT', '/api/users/1/active', 'PATCH'],
    ['TRACE', '/api/users', 'GET, POST'],
    ['OPTIONS', '/api/users/1', 'GET, PUT, DELETE'],
    ['QUERY', '/api/health', 'GET'],
    ['HEAD', '/api/users/1/edit', 'GET'],
  ])('answers %s %s with 405 and Allow: %s', async (method, url, allow) => {
    const res = await rawRequest(base, method, url);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
  });

  it('names the method and the methods the path takes in the problem', async () => {
    const res = await rawRequest(base, 'PATCH', '/api/users');
    expect(res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
    expect(String(res.json().detail)).toContain('PATCH');
    expect(String(res.json().detail)).toContain('GET, POST');
  });

  it('answers 405 for a path spelled the way the router reads it (/%61pi/users)', async () => {
    const res = await rawRequest(base, 'PATCH', '/%61pi/users');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
  });

  it('answers 405 before reading the body: a wrong method with an unreadable body is still 405', async () => {
    const res = await rawRequest(base, 'PATCH', '/api/users', {
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(405);
  });
});

describe('without a built SPA', () => {
  it.each([
    ['GET', '/api/users/1/active', 'PATCH'],
    ['HEAD', '/api/health', 'GET'],
    ['OPTIONS', '/api/users', 'GET, POST'],
    ['DELETE', '/api/users/1/edit', 'GET'],
  ] as const)('answers %s %s with 405 and Allow: %s', async (method, url, allow) => {
    const res = await bare.inject({ method, url });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
  });

  it('answers an unknown API path with 404', async () => {
    const res = await bare.inject({ method: 'GET', url: '/api/users/1/active/more' });
    expect(res.statusCode).toBe(404);
  });
});

describe('what stays as it was', () => {
  it.each([
    ['GET', '/api/nothing-here'],
    ['PATCH', '/api/nothing-here'],
    ['OPTIONS', '/api/nothing-here'],
    ['TRACE', '/api/users/1/nothing'],
    ['GET', '/api/users/1/active/more'],
    ['PATCH', '/api/users/'],
  ])('answers %s %s (no such path) with 404', async (method, url) => {
    const res = await rawRequest(base, method, url);
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBeUndefined();
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('still serves the SPA for a client-side route', async () => {
    const res = await rawRequest(base, 'GET', '/users/1/edit');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<div id="root">');
  });

  it('keeps non-API paths out of it: a POST to an SPA route is a 404', async () => {
    const res = await rawRequest(base, 'POST', '/users');
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBeUndefined();
  });

  it('leaves the tRPC door its own 405: Allow: GET, POST', async () => {
    const res = await rawRequest(base, 'PUT', '/api/trpc/users.list');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
  });
});
