// ajv is a devDependency of this package (test-only checks).
import Ajv2020 from 'ajv/dist/2020.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '../../src/rest/openapi.js';
import { SCIM_PATH_PREFIX } from '../../src/rest/openapi-scim.js';
import { given } from '../support/given.js';
import { filterQuery, scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The SCIM door in the OpenAPI document says what the server does: every route it answers is
 * listed (and nothing more), and real answers — successes and refusals — match the documented
 * status and schema of their operation. (openapi-agreement.test.ts skips the SCIM operations: its
 * oracle is the REST door's 422.)
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const MEDIA = 'application/scim+json';

let t: TestApp;
let doc: OpenApiDocument;
let admin: ReturnType<typeof scimClient>;
let viewer: ReturnType<typeof scimClient>;
let nobodyToken: string;
const ajv = new Ajv2020({ strict: false, validateFormats: false });

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = scimClient(t.app, await g.token((await g.user({ roles: ['admin'] })).id));
  await g.user({ roles: ['admin'] });
  viewer = scimClient(t.app, await g.token((await g.user({ roles: ['viewer'] })).id));
  nobodyToken = await g.token((await g.user()).id);
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
});
afterAll(() => t.close());

const scimOps = () =>
  Object.entries(doc.paths)
    .filter(([path]) => path.startsWith(SCIM_PATH_PREFIX))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op: op as OpenApiOperation })),
    );

const validator = (schema: JsonSchema) => ajv.compile({ ...schema, components: doc.components });

/** The answer's status is documented for `METHOD path`, and its body matches that response's schema. */
function expectDocumented(method: string, path: string, res: LightMyRequestResponse) {
  const op = doc.paths[`${SCIM_PATH_PREFIX}${path}`]?.[method as 'get'] as OpenApiOperation;
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const response = op.responses[String(res.statusCode)];
  expect(response, `${method.toUpperCase()} ${path} documents ${res.statusCode}: ${res.body}`).toBeDefined();
  const schema = response?.content?.[MEDIA]?.schema;
  if (!schema) {
    expect(res.body).toBe('');
    return;
  }
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
  const valid = validator(schema);
  expect(valid(res.json()), `${method} ${path} ${res.statusCode}: ${ajv.errorsText(valid.errors)}`).toBe(true);
  for (const header of Object.keys(response?.headers ?? {})) {
    expect(res.headers[header.toLowerCase()], `${header} on ${res.statusCode}`).toBeDefined();
  }
}

/**
 * `METHOD /path` of every route under `prefix`, from Fastify's route tree: a child line
 * (`│   └── /:id (GET, PUT)`) continues the path of the line one level up.
 */
function routesUnder(tree: string, prefix: string): string[] {
  const stack: string[] = [];
  return tree.split('\n').flatMap((line) => {
    const m = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)/.exec(line);
    if (!m) return [];
    const depth = (m[1] as string).length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${m[2]}`;
    stack.push(m[2] as string);
    if (!path.startsWith(`${prefix}/`)) return [];
    return (m[3] as string)
      .split(', ')
      .filter((verb) => verb !== 'HEAD')
      .map((verb) => `${verb} ${path.replace(/:(\w+)/g, '{$1}')}`);
  });
}

function expectBodyDocumented(method: string, path: string, body: unknown) {
  const op = doc.paths[`${SCIM_PATH_PREFIX}${path}`]?.[method as 'post'] as OpenApiOperation;
  const valid = validator(op.requestBody?.content[MEDIA]?.schema as JsonSchema);
  expect(valid(body), `${method} ${path} body: ${ajv.errorsText(valid.errors)}`).toBe(true);
}

describe('the SCIM door in the OpenAPI document', () => {
  it('lists every SCIM route the server answers, tagged SCIM, bearer only', () => {
    const routes = routesUnder(t.app.printRoutes({ commonPrefix: false }), SCIM_PATH_PREFIX);
    const documented = scimOps().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect([...documented].sort()).toEqual([...new Set(routes)].sort());
    for (const { op } of scimOps()) {
      expect(op.tags).toEqual(['SCIM']);
      expect(op.security).toEqual([{ bearerAuth: [] }]);
      expect(op.responses['401']).toBeDefined();
    }
    expect(doc.tags).toContainEqual({ name: 'SCIM' });
  });

  it('answers 401 in SCIM shape, as documented, on every route without a token', async () => {
    const anonymous = scimClient(t.app, null);
    for (const { path, method } of scimOps()) {
      const url = path.slice(SCIM_PATH_PREFIX.length).replace('{id}', '1');
      const res =
        method === 'get' || method === 'delete'
          ? await anonymous[method](url)
          : await anonymous[method as 'post'](url, { schemas: [USER] });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expectDocumented(method, path.slice(SCIM_PATH_PREFIX.length), res);
    }
  });

  it('describes the users answers the server really sends, and accepts the bodies identity providers send', async () => {
    const body = {
      schemas: [USER],
      userName: 'ada@example.com',
      externalId: '00u-ada',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: 'ada@example.com', type: 'work', primary: 'True' }],
      active: true,
    };
    expectBodyDocumented('post', '/Users', body);
    const created = await admin.post('/Users', body);
    expectDocumented('post', '/Users', created);
    const id = created.json().id as string;
    expectDocumented(
      'get',
      `/Users`,
      await admin.get('/Users?startIndex=0&count=5000&sortBy=userName&sortOrder=DESCENDING'),
    );
    expectDocumented('get', '/Users', await admin.get('/Users?cursor=&count=1'));
    const search = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      filter: 'userName sw "ada"',
      count: 5,
      attributes: ['userName'],
    };
    expectBodyDocumented('post', '/Users/.search', search);
    expectDocumented('post', '/Users/.search', await admin.post('/Users/.search', search));
    expectDocumented('post', '/Groups/.search', await admin.post('/Groups/.search', { count: '2' }));
    expectDocumented('post', '/.search', await admin.post('/.search', { filter: 'id pr', startIndex: 2 }));
    expectDocumented('post', '/.search', await scimClient(t.app, nobodyToken).post('/.search', {}));
    expectDocumented('get', '/Users/{id}', await admin.get(`/Users/${id}?attributes=userName`));
    expectDocumented('put', '/Users/{id}', await admin.put(`/Users/${id}`, { ...body, displayName: 'Ada L.' }));
    const patch = { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] };
    expectBodyDocumented('patch', '/Users/{id}', patch);
    const patched = await admin.patch(`/Users/${id}`, patch);
    expectDocumented('patch', '/Users/{id}', patched);
    const stale = await admin.delete(`/Users/${id}`, { 'if-match': 'W/"0"' });
    expect(stale.statusCode).toBe(412);
    expectDocumented('delete', '/Users/{id}', stale);
    const deleted = await admin.delete(`/Users/${id}`, { 'if-match': patched.headers.etag as string });
    expect(deleted.statusCode).toBe(204);
    expectDocumented('delete', '/Users/{id}', deleted);
  });

  it('describes the refusals the server really sends', async () => {
    const taken = { schemas: [USER], userName: 'taken@example.com' };
    await admin.post('/Users', taken);
    const refusals: Array<[string, string, LightMyRequestResponse, number]> = [
      ['get', '/Users', await admin.get(`/Users${filterQuery('nickName eq "x"')}`), 400],
      ['get', '/Users', await admin.get('/Users?cursor=nonsense'), 400],
      ['get', '/Users', await admin.get('/Users?sortBy=password'), 400],
      ['get', '/Users/{id}', await admin.get('/Users/987654'), 404],
      ['post', '/Users', await admin.post('/Users', taken), 409],
      ['post', '/Users', await admin.post('/Users', { userName: 'no-schemas@example.com' }), 400],
      ['post', '/Users', await viewer.post('/Users', { schemas: [USER], userName: 'v@example.com' }), 403],
      ['patch', '/Users/{id}', await admin.patch('/Users/1', { schemas: [PATCH], Operations: [] }), 400],
      ['post', '/Groups', await viewer.post('/Groups', { schemas: [GROUP], displayName: 'Help Desk' }), 403],
      ['get', '/Groups/{id}', await admin.get('/Groups/abc'), 404],
      ['get', '/Schemas/{id}', await admin.get('/Schemas/urn:nothing'), 404],
    ];
    for (const [method, path, res, status] of refusals) {
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(status);
      expectDocumented(method, path, res);
    }
  });

  it('describes the groups and discovery answers the server really sends', async () => {
    const body = { schemas: [GROUP], displayName: 'Sales – EMEA' };
    expectBodyDocumented('post', '/Groups', body);
    const created = await admin.post('/Groups', body);
    expectDocumented('post', '/Groups', created);
    const id = created.json().id as string;
    expectDocumented('get', '/Groups', await admin.get('/Groups?excludedAttributes=members'));
    expectDocumented('get', '/Groups/{id}', await admin.get(`/Groups/${id}`));
    expectDocumented('put', '/Groups/{id}', await admin.put(`/Groups/${id}`, { ...body, displayName: 'Help Desk' }));
    const patch = { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: '1' }] }] };
    expectBodyDocumented('patch', '/Groups/{id}', patch);
    expectDocumented('patch', '/Groups/{id}', await admin.patch(`/Groups/${id}`, patch));
    expectDocumented('delete', '/Groups/{id}', await admin.delete(`/Groups/${id}`));
    for (const path of [
      '/ServiceProviderConfig',
      '/ResourceTypes',
      '/ResourceTypes/User',
      '/Schemas',
      `/Schemas/${USER}`,
    ]) {
      const res = await viewer.get(path);
      expect(res.statusCode, path).toBe(200);
      expectDocumented('get', path.replace(/^\/(ResourceTypes|Schemas)\/.+$/, '/$1/{id}'), res);
    }
  });

  it('states the page size cap the server applies', async () => {
    const count = doc.paths[`${SCIM_PATH_PREFIX}/Users`]?.get?.parameters?.find((p) => p.name === 'count');
    const config = (await admin.get('/ServiceProviderConfig')).json();
    expect(count?.description).toContain(String(config.filter.maxResults));
  });
});
