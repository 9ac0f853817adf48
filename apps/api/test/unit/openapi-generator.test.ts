import { ACCEPTS_NOTHING, constrainInput, describeInput, EMPTY_IS_ABSENT, IdInputSchema } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, type JsonSchema, type OpenApiOperation } from '../../src/rest/openapi.js';
import { publicProcedure, rest, router } from '../../src/trpc/init.js';
import { can } from '../../src/trpc/procedures.js';
import { demoRouter } from '../support/openapi-demo-router.js';
import { op, operations, shapeProblems } from '../support/openapi-shape.js';

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
    // Signed in, no permission, no input: 401, and 403 only for a session held at enrolment.
    const tree = op(doc, 'get', '/api/tree').responses;
    expect(Object.keys(tree).sort()).toEqual(['200', '401', '403']);
    expect(tree['403']?.description).toMatch(/^`TWO_FACTOR_ENROLMENT_REQUIRED`: /);
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
