import { ACCEPTS_NOTHING, constrainInput, describeInput, EMPTY_IS_ABSENT, IdInputSchema } from '@app/contracts';
// ajv is a devDependency of this package (test-only checks).
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restRoutes } from '../../src/rest/routes.js';
import {
  buildOpenApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../../src/rest/openapi.js';
import { appRouter } from '../../src/app/app-router.js';
import { publicProcedure, rest, router } from '../../src/trpc/init.js';
import { can, protectedProcedure } from '../../src/trpc/procedures.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function operations(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as OpenApiOperation })),
  );
}

function op(doc: OpenApiDocument, method: string, path: string): OpenApiOperation {
  const found = operations(doc).find((o) => o.method === method && o.path === path);
  if (!found) throw new Error(`${method} ${path} is not documented`);
  return found.op;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [item] : refsIn(item),
  );
}

/** Every JSON Schema the document embeds: components, parameters, bodies, responses, headers. */
function schemasIn(doc: OpenApiDocument): Array<[string, JsonSchema]> {
  const found: Array<[string, JsonSchema]> = Object.entries(doc.components.schemas).map(([n, s]) => [n, s]);
  for (const { path, method, op } of operations(doc)) {
    const at = `${method} ${path}`;
    for (const p of op.parameters ?? []) found.push([`${at} parameter ${p.name}`, p.schema]);
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
      found.push([`${at} body ${type}`, media.schema]);
    for (const [status, response] of Object.entries(op.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {}))
        found.push([`${at} ${status} ${type}`, media.schema]);
      for (const [name, header] of Object.entries(response.headers ?? {}))
        found.push([`${at} ${status} ${name}`, header.schema]);
    }
  }
  return found;
}

/** The rules of OpenAPI 3.1 a generated document could break; [] when it keeps them all. */
function shapeProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const fail = (message: string) => problems.push(message);
  if (!/^3\.1\.\d+$/.test(doc.openapi)) fail(`openapi is ${doc.openapi}`);
  if (!doc.info?.title || !doc.info?.version) fail('info needs title and version');
  const schemes = Object.keys(doc.components.securitySchemes);
  const tags = doc.tags.map((t) => t.name);
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) fail(`path ${path} must start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const key of Object.keys(item)) {
      if (!(METHODS as readonly string[]).includes(key)) fail(`${path}: ${key} is not an HTTP method`);
    }
    for (const [method, operation] of Object.entries(item) as Array<[string, OpenApiOperation]>) {
      const at = `${method.toUpperCase()} ${path}`;
      if (ids.has(operation.operationId)) fail(`${at}: operationId ${operation.operationId} is not unique`);
      ids.add(operation.operationId);
      const statuses = Object.keys(operation.responses ?? {});
      if (statuses.length === 0) fail(`${at}: no responses`);
      for (const status of statuses) {
        if (!/^([1-5](\d\d|XX)|default)$/.test(status)) fail(`${at}: bad status ${status}`);
        if (typeof operation.responses[status]?.description !== 'string') fail(`${at} ${status}: no description`);
      }
      const params = operation.parameters ?? [];
      const keys = params.map((p) => `${p.in}:${p.name}`);
      if (new Set(keys).size !== keys.length) fail(`${at}: duplicate parameters`);
      for (const name of templated) {
        if (!params.some((p) => p.in === 'path' && p.name === name && p.required === true)) {
          fail(`${at}: path parameter ${name} is not declared as required`);
        }
      }
      for (const p of params) {
        if (p.in === 'path' && !templated.includes(p.name)) fail(`${at}: ${p.name} is not in the path`);
        if (p.style === 'deepObject' && p.in !== 'query') fail(`${at}: deepObject outside the query`);
      }
      if (operation.requestBody && !['post', 'put', 'patch'].includes(method)) fail(`${at}: body on ${method}`);
      for (const requirement of operation.security) {
        for (const name of Object.keys(requirement)) if (!schemes.includes(name)) fail(`${at}: unknown scheme ${name}`);
      }
      for (const tag of operation.tags) if (!tags.includes(tag)) fail(`${at}: tag ${tag} not declared`);
    }
  }
  for (const ref of refsIn(doc)) if (resolvePointer(doc, ref) === undefined) fail(`$ref ${ref} does not resolve`);
  for (const name of Object.keys(doc.components.schemas)) {
    if (!/^[a-zA-Z0-9.\-_]+$/.test(name)) fail(`component name ${name} is not allowed`);
  }
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [where, schema] of schemasIn(doc)) {
    if (!ajv.validateSchema(schema)) fail(`${where}: not JSON Schema 2020-12: ${ajv.errorsText(ajv.errors)}`);
  }
  return problems;
}

describe('the OpenAPI document of the app', () => {
  const doc = buildOpenApiDocument(appRouter, { version: '9.8.7' });

  it('is a well-formed OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'User administration API', version: '9.8.7' });
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(shapeProblems(doc)).toEqual([]);
  });

  it('documents every REST route of the router with its method, under /api', () => {
    const routes = restRoutes(appRouter);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const operation = op(doc, route.rest.method.toLowerCase(), `/api${route.rest.path}`);
      expect(operation.operationId).toBe(route.procedurePath);
    }
    expect(operations(doc)).toHaveLength(routes.length);
  });

  it('marks public routes `security: []` and every other route as needing a session or token', () => {
    for (const route of restRoutes(appRouter)) {
      const operation = op(doc, route.rest.method.toLowerCase(), `/api${route.rest.path}`);
      if (route.meta.public) {
        expect(operation.security, route.procedurePath).toEqual([]);
        // A public route answers 401 only when it says so (login: wrong credentials).
        const declares401 = route.rest.problems?.includes('UNAUTHENTICATED') ?? false;
        expect(operation.responses['401'] !== undefined, route.procedurePath).toBe(declares401);
      } else {
        expect(operation.security, route.procedurePath).toEqual([{ cookieAuth: [] }, { bearerAuth: [] }]);
        expect(operation.responses['401'], route.procedurePath).toBeDefined();
      }
    }
    for (const path of ['/api/health', '/api/ready', '/api/openapi.json'])
      expect(op(doc, 'get', path).security).toEqual([]);
    expect(op(doc, 'post', '/api/auth/login').security).toEqual([]);
    expect(doc.components.securitySchemes).toMatchObject({
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'sid' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
  });

  it('documents 401 and 403 naming the permission on every permission-guarded route', () => {
    const guarded = restRoutes(appRouter).filter((r) => r.meta.permission);
    for (const route of guarded) {
      const operation = op(doc, route.rest.method.toLowerCase(), `/api${route.rest.path}`);
      expect(operation['x-permission']).toBe(route.meta.permission);
      expect(operation.responses['401']?.content).toHaveProperty('application/problem+json');
      expect(operation.responses['403']?.description).toContain(`\`${route.meta.permission}\``);
    }
    // A signed-in route without a permission has no 403 to document.
    expect(op(doc, 'get', '/api/auth/me').responses['403']).toBeUndefined();
    expect(op(doc, 'get', '/api/auth/me')['x-permission']).toBeUndefined();
  });

  it('documents 403 on a route whose permission the input picks (bulk), naming each', () => {
    // Found by the fuzzer (test/fuzz): POST /users/bulk answered 403 without documenting it.
    const bulk = op(doc, 'post', '/api/users/bulk');
    expect(bulk.responses['403']?.content).toHaveProperty('application/problem+json');
    for (const permission of ['users.delete', 'users.restore', 'users.forceDelete', 'users.setActive']) {
      expect(bulk.responses['403']?.description).toContain(`\`${permission}\``);
    }
    expect(bulk['x-permission']).toBeUndefined();
  });

  it('documents the privilege ceiling (403 OUTRANKED) on every route that changes one user', () => {
    for (const [method, path] of [
      ['put', '/api/users/{id}'],
      ['patch', '/api/users/{id}/active'],
      ['delete', '/api/users/{id}'],
    ] as const) {
      expect(op(doc, method, path).responses['403']?.description, `${method} ${path}`).toContain('`OUTRANKED`');
    }
    expect(op(doc, 'put', '/api/users/{id}').responses['409']?.description).toContain('VERSION_CONFLICT');
  });

  it("documents the ceiling on every route that reaches another user's tokens or sessions, and 404 for a credential id", () => {
    for (const [method, path, permission] of [
      ['get', '/api/users/{id}/tokens', 'tokens.manage'],
      ['post', '/api/users/{id}/tokens', 'tokens.manage'],
      ['delete', '/api/users/{id}/tokens/{tokenId}', 'tokens.manage'],
      ['get', '/api/users/{id}/sessions', 'users.update'],
      ['delete', '/api/users/{id}/sessions', 'users.update'],
      ['delete', '/api/users/{id}/sessions/{sessionId}', 'users.update'],
    ] as const) {
      const operation = op(doc, method, path);
      expect(operation['x-permission'], `${method} ${path}`).toBe(permission);
      expect(operation.responses['403']?.description, `${method} ${path}`).toContain('`OUTRANKED`');
      expect(operation.responses['404'], `${method} ${path}`).toBeDefined();
      expect(operation.summary).not.toBe('');
    }
    for (const path of ['/api/tokens/{tokenId}', '/api/auth/sessions/{sessionId}']) {
      expect(op(doc, 'delete', path).responses['404']?.description, path).toContain('NOT_FOUND');
      expect(op(doc, 'delete', path).responses['204']).toBeDefined();
    }
    // Creating a token answers 201 with the secret; the list never has one.
    expect(Object.keys(op(doc, 'post', '/api/tokens').responses)).toContain('201');
    expect(JSON.stringify(op(doc, 'get', '/api/tokens').responses['200'])).not.toContain('"token"');
  });

  it('generates the Problem schema from the contracts, request id included', () => {
    const problem = doc.components.schemas.Problem as { properties: Record<string, JsonSchema>; required: string[] };
    expect(Object.keys(problem.properties)).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'code', 'detail', 'errors', 'permission', 'requestId']),
    );
    expect(problem.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'code', 'detail']));
    expect(problem.properties.code?.enum).toEqual(expect.arrayContaining(['UNAUTHENTICATED', 'LAST_ADMIN']));
  });

  it('documents what the health routes answer', () => {
    expect(op(doc, 'get', '/api/ready').responses['503']?.description).toContain('UNAVAILABLE');
    expect(op(doc, 'get', '/api/health').responses).not.toHaveProperty('503');
  });
});

const Tree: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree);
  },
});
const Label = z.object({ text: z.string() }).meta({ id: 'OpenApiTestLabel' });
// With a default, its input (optional) and output (required) differ: two components, one id.
const Counter = z.object({ n: z.number().default(1) }).meta({ id: 'OpenApiTestCounter' });

const demoRouter = router({
  things: router({
    list: can('users.view')
      .meta(rest('GET', '/things', { summary: 'List things' }))
      .input(
        z.object({
          q: z.string().describe('Search text').optional(),
          page: z.coerce.number().int().min(1).default(1),
          filters: z
            .object({ tag: z.array(z.string()), range: z.object({ from: z.string() }) })
            .partial()
            .optional(),
          with: z.array(z.enum(['owner'])).optional(),
        }),
      )
      .query(() => ({ rows: [] })),
    export: can('users.export')
      .meta(
        rest('GET', '/things/export', {
          produces: [
            'text/csv',
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'application/json',
          ],
          problems: ['RATE_LIMITED'],
        }),
      )
      .input(z.object({ format: z.enum(['csv', 'xlsx', 'json']) }))
      .query(() => null),
    update: can('users.update')
      .meta(rest('PUT', '/things/{id}'))
      .input(IdInputSchema)
      .input(z.object({ name: z.string().min(1), label: Label, spare: Label.optional() }))
      .output(z.object({ item: z.object({ id: z.number().int(), at: z.date() }) }))
      .mutation(() => ({ item: { id: 1, at: new Date() } })),
    rename: can('users.update')
      .meta(rest('PATCH', '/things/{id}/name'))
      .input(z.object({ id: z.coerce.number().int().positive(), name: z.string().optional() }))
      .mutation(() => null),
    touch: can('users.update')
      .meta(rest('POST', '/things/{id}/touch'))
      .input(IdInputSchema)
      .mutation(() => null),
    remove: can('users.delete')
      .meta(rest('DELETE', '/things/{id}', { status: 204 }))
      .input(IdInputSchema)
      .mutation(() => undefined),
    tree: protectedProcedure
      .meta(rest('GET', '/tree'))
      .output(Tree)
      .query(() => ({ name: 'root', children: [] })),
    signIn: publicProcedure
      .meta({
        ...rest('POST', '/sign-in', { status: 201, problems: ['UNAUTHENTICATED', 'RATE_LIMITED'] }),
        public: true,
      })
      .input(z.object({ email: z.string(), password: z.string() }))
      .mutation(() => ({ ok: true })),
    count: protectedProcedure
      .meta(rest('POST', '/count'))
      .input(z.object({ counter: Counter }))
      .output(z.object({ counter: Counter }))
      .mutation(({ input }) => input),
    internalOnly: publicProcedure.meta({ public: true }).query(() => 'not on REST'),
  }),
});

describe('the OpenAPI generator', () => {
  const doc = buildOpenApiDocument(demoRouter, { version: '1.0.0' });

  it('keeps the rules of OpenAPI 3.1 for every kind of route', () => {
    expect(shapeProblems(doc)).toEqual([]);
    expect(operations(doc).map((o) => o.op.operationId)).not.toContain('things.internalOnly');
    expect(operations(doc)).toHaveLength(9);
  });

  it('names operations after procedures and tags them with their module', () => {
    const list = op(doc, 'get', '/api/things');
    expect(list).toMatchObject({ operationId: 'things.list', summary: 'List things', tags: ['things'] });
    expect(op(doc, 'patch', '/api/things/{id}/name').summary).toBe('Rename');
    expect(doc.tags).toEqual([{ name: 'things' }]);
  });

  it('turns a GET input into query parameters: objects as deepObject, lists as repeated names', () => {
    const params = op(doc, 'get', '/api/things').parameters ?? [];
    expect(params.find((p) => p.name === 'q')).toMatchObject({ in: 'query', description: 'Search text' });
    expect(params.find((p) => p.name === 'q')).not.toHaveProperty('required');
    expect(params.find((p) => p.name === 'page')?.schema).toMatchObject({ type: 'integer', default: 1 });
    expect(params.find((p) => p.name === 'filters')).toMatchObject({ style: 'deepObject', explode: true });
    expect(params.find((p) => p.name === 'with')).toMatchObject({ style: 'form', explode: true });
    expect(op(doc, 'get', '/api/things/export').parameters).toEqual([
      expect.objectContaining({ name: 'format', in: 'query', required: true }),
    ]);
  });

  it('takes path parameters out of the body, merging chained inputs', () => {
    const update = op(doc, 'put', '/api/things/{id}');
    expect(update.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'integer' }) },
    ]);
    const body = update.requestBody?.content['application/json']?.schema as JsonSchema;
    expect(update.requestBody?.required).toBe(true);
    expect(Object.keys(body.properties as object)).toEqual(['name', 'label', 'spare']);
    expect(body.required).toEqual(['name', 'label']);
    // Only optional fields left: a body may be sent but is not required.
    expect(op(doc, 'patch', '/api/things/{id}/name').requestBody?.required).toBe(false);
    // Nothing left but the path: no body at all, and so no 400 for a malformed one.
    expect(op(doc, 'post', '/api/things/{id}/touch').requestBody).toBeUndefined();
    expect(op(doc, 'post', '/api/things/{id}/touch').responses['400']).toBeUndefined();
    expect(op(doc, 'post', '/api/things/{id}/touch').responses['415']).toBeUndefined();
  });

  it('moves named and recursive schemas to components, so their $refs resolve', () => {
    expect(doc.components.schemas.OpenApiTestLabel).toMatchObject({ type: 'object', required: ['text'] });
    const body = op(doc, 'put', '/api/things/{id}').requestBody?.content['application/json']?.schema as JsonSchema;
    expect((body.properties as Record<string, JsonSchema>).label).toEqual({
      $ref: '#/components/schemas/OpenApiTestLabel',
    });
    const tree = op(doc, 'get', '/api/tree').responses['200']?.content?.['application/json']?.schema;
    expect(tree).toEqual({ $ref: '#/components/schemas/things.tree.output' });
    const count = op(doc, 'post', '/api/count');
    const counterIn = count.requestBody?.content['application/json']?.schema.properties;
    const counterOut = count.responses['200']?.content?.['application/json']?.schema.properties;
    expect(counterIn).toEqual({ counter: { $ref: '#/components/schemas/OpenApiTestCounter' } });
    expect(counterOut).toEqual({ counter: { $ref: '#/components/schemas/OpenApiTestCounter_2' } });
    expect(doc.components.schemas.OpenApiTestCounter).not.toHaveProperty('required');
    expect(doc.components.schemas.OpenApiTestCounter_2).toHaveProperty('required', ['n']);
    expect(JSON.stringify(doc)).not.toMatch(/"#\/\$defs|"\$ref":"#"/);
  });

  it('uses the declared output for the success response, and a permissive object without one', () => {
    const update = op(doc, 'put', '/api/things/{id}').responses['200']?.content?.['application/json']?.schema;
    expect(update).toMatchObject({ type: 'object', properties: { item: { type: 'object' } } });
    const touch = op(doc, 'post', '/api/things/{id}/touch').responses['200']?.content?.['application/json']?.schema;
    expect(touch).toEqual({ type: 'object' });
  });

  it('documents the declared success status, and no content for 204', () => {
    expect(Object.keys(op(doc, 'post', '/api/sign-in').responses)).toContain('201');
    const remove = op(doc, 'delete', '/api/things/{id}');
    expect(remove.responses['204']).toEqual({ description: expect.any(String) });
    expect(remove.responses['200']).toBeUndefined();
  });

  it('documents a file answer as binary for each media type the route produces', () => {
    const ok = op(doc, 'get', '/api/things/export').responses['200'];
    expect(ok?.content?.['text/csv']?.schema).toMatchObject({ type: 'string', format: 'binary' });
    expect(ok?.content?.['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']?.schema).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(ok?.content?.['application/json']?.schema).toEqual({});
    expect(ok?.headers).toHaveProperty('Content-Disposition');
  });

  it('documents the refusals a route implies, as problem+json', () => {
    const update = op(doc, 'put', '/api/things/{id}');
    expect(Object.keys(update.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '415', '422']);
    for (const status of ['400', '401', '403', '404', '413', '415', '422']) {
      expect(update.responses[status]?.content).toEqual({
        'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
      });
    }
    expect(update['x-permission']).toBe('users.update');
    expect(update.responses['403']?.description).toContain('`users.update`');
    // Signed in, no permission, no input: only 401.
    expect(Object.keys(op(doc, 'get', '/api/tree').responses).sort()).toEqual(['200', '401']);
  });

  it('adds the refusals a route declares, with Retry-After for 429', () => {
    const signIn = op(doc, 'post', '/api/sign-in');
    expect(Object.keys(signIn.responses).sort()).toEqual(['201', '400', '401', '413', '415', '422', '429']);
    expect(signIn.security).toEqual([]);
    expect(signIn.responses['429']?.headers).toHaveProperty('Retry-After');
    expect(op(doc, 'get', '/api/things/export').responses['429']).toBeDefined();
  });

  it('is checked by a shape check that does catch broken documents', () => {
    const broken = structuredClone(doc);
    const list = broken.paths['/api/things']?.get as OpenApiOperation;
    list.responses = {};
    list.operationId = 'things.export';
    list.parameters = [{ name: 'x', in: 'query', schema: { type: 'nonsense' } }];
    list.security = [{ nobodyAuth: [] }];
    const { Problem: _gone, ...others } = broken.components.schemas;
    broken.components.schemas = others;
    const problems = shapeProblems(broken).join('\n');
    expect(problems).toContain('GET /api/things: no responses');
    expect(problems).toContain('operationId things.export is not unique');
    expect(problems).toContain('parameter x: not JSON Schema 2020-12');
    expect(problems).toContain('unknown scheme nobodyAuth');
    expect(problems).toContain('$ref #/components/schemas/Problem does not resolve');
  });

  it('refuses two procedures on the same method and path', () => {
    const clash = router({
      a: publicProcedure.meta({ ...rest('GET', '/same'), public: true }).query(() => 1),
      b: publicProcedure.meta({ ...rest('GET', '/same'), public: true }).query(() => 2),
    });
    expect(() => buildOpenApiDocument(clash, { version: '1' })).toThrow(/GET \/api\/same/);
  });

  it('shows what the contracts declare: exact inputs, dependent keys across chained inputs, empty query values', () => {
    const Shape = constrainInput(z.object({ a: z.string().optional(), b: z.string().optional() }), {
      dependentRequired: { a: ['b'] },
    });
    const Query = constrainInput(
      z.object({
        kind: describeInput(z.preprocess((v) => v, z.enum(['x'])).optional(), { type: 'string', pattern: '^[Xx]$' }),
        never: describeInput(z.string().optional(), ACCEPTS_NOTHING),
      }),
      { [EMPTY_IS_ABSENT]: true },
    );
    const declared = router({
      put: can('users.update')
        .meta(rest('PUT', '/declared/{id}'))
        .input(IdInputSchema)
        .input(Shape)
        .mutation(() => 1),
      list: can('users.view')
        .meta(rest('GET', '/declared'))
        .input(Query)
        .query(() => 1),
    });
    const d = buildOpenApiDocument(declared, { version: '1' });
    expect(op(d, 'put', '/api/declared/{id}').requestBody?.content['application/json']?.schema).toMatchObject({
      dependentRequired: { a: ['b'] },
    });
    expect(op(d, 'get', '/api/declared').parameters).toEqual([
      { name: 'kind', in: 'query', schema: { type: 'string', pattern: '^[Xx]$' }, allowEmptyValue: true },
    ]);
    expect(JSON.stringify(d)).not.toContain(EMPTY_IS_ABSENT);
  });
});
