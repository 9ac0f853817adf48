// ajv is a devDependency of this package (test-only checks).
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';
import { withScimDoor } from '../../src/rest/openapi-scim.js';
import { appRouter } from '../../src/app/app-router.js';
import { APP_VERSION } from '../../src/version.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /api/openapi.json', () => {
  it('answers the OpenAPI 3.1 document without credentials, as JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['set-cookie']).toBeUndefined();
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: 'User administration API', version: APP_VERSION });
  });

  it('serves the document generated from the app router, itself included, and the SCIM door', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const built = withScimDoor(buildOpenApiDocument(appRouter, { version: APP_VERSION }));
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(built)));
    expect(res.json().paths['/api/openapi.json'].get).toMatchObject({ operationId: 'system.openapi', security: [] });
  });

  it('answers through the tRPC door too, as a public procedure', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/trpc/system.openapi' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.openapi).toMatch(/^3\.1\./);
  });

  it('documents a 404 on every operation whose path names something, an attribute key as an id', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const named = Object.entries(doc.paths).filter(([path]) => path.includes('{'));
    expect(named.map(([path]) => path)).toContain('/api/attributes/{key}');
    for (const [path, operations] of named) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses), `${method.toUpperCase()} ${path}`).toContain('404');
      }
    }
    // The fuzzer found GET /api/attributes/constructor answering 404 (rightly: test/http/attributes.test.ts)
    // where the document listed only 200, 401, 403 and 422.
  });

  it('describes the problem bodies the API really sends', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const isProblem = ajv.compile(doc.components.schemas.Problem);
    const refused = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toHaveProperty('requestId');
    expect(isProblem(refused.json()), ajv.errorsText(isProblem.errors)).toBe(true);
    const invalid = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: '' } });
    expect(invalid.statusCode).toBe(422);
    expect(isProblem(invalid.json()), ajv.errorsText(isProblem.errors)).toBe(true);
  });

  it('describes the health answer the API really sends', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const ok = doc.paths['/api/ready'].get.responses['200'].content['application/json'].schema;
    const matches = new Ajv2020({ strict: false }).compile(ok);
    expect(matches((await t.app.inject({ method: 'GET', url: '/api/ready' })).json())).toBe(true);
  });
});
