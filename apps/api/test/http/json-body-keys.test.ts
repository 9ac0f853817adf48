import { REFUSED_JSON_KEYS } from '@app/contracts';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '../../src/rest/openapi.js';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * `__proto__`, `constructor` and `prototype` are refused as keys anywhere in a JSON body, with
 * 400, at both doors; and the OpenAPI document says so on every object of every request body, so
 * a client (or a fuzzer) knows before it sends one.
 */
let t: TestApp;
let token: string;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  token = await g.token((await g.user({ roles: ['viewer'] })).id);
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
});
afterAll(() => t.close());

/** Sent as written: JSON.stringify would drop a `__proto__` key of an object literal. */
const send = (url: string, text: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: text,
  });

const BODIES: Array<[string, string]> = [
  ['__proto__ at the top', '{"name":"x","__proto__":{"admin":true}}'],
  ['constructor at the top', '{"name":"x","constructor":1}'],
  ['prototype at the top', '{"name":"x","prototype":"y"}'],
  ['constructor.prototype', '{"name":"x","constructor":{"prototype":{"admin":true}}}'],
  ['a key deep in a list', '{"name":"x","extra":[{"deep":{"prototype":1}}]}'],
  ['__proto__ spelt with an escape', '{"name":"x","\\u005f_proto__":{}}'],
];

describe('a refused key in a JSON body', () => {
  it.each(BODIES)('%s: REST answers 400 naming the key, and nothing is made', async (_what, text) => {
    const before = await t.db.models.ApiToken.count();
    const res = await send('/api/tokens', text);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(res.json().detail).toMatch(/`(__proto__|constructor|prototype)`/);
    expect(await t.db.models.ApiToken.count()).toBe(before);
  });

  it.each(BODIES)('%s: tRPC answers 400 too', async (_what, text) => {
    const res = await send('/api/trpc/tokens.create', text);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.data.code).toBe('BAD_REQUEST');
  });

  it('is a key only: the same words as values are taken', async () => {
    const res = await send('/api/tokens', '{"name":"constructor prototype __proto__"}');
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('the OpenAPI document', () => {
  const bodies = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => {
        const schema = (op as OpenApiOperation).requestBody?.content['application/json']?.schema;
        return schema ? [{ at: `${method.toUpperCase()} ${path}`, schema, op: op as OpenApiOperation }] : [];
      }),
    );
  const resolve = (schema: JsonSchema): JsonSchema =>
    typeof schema.$ref === 'string'
      ? resolve(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] ?? {})
      : schema;

  /** Every object schema of a body: the body itself and every object inside it. */
  function objectsIn(schema: JsonSchema, seen = new Set<JsonSchema>()): JsonSchema[] {
    const node = resolve(schema);
    if (seen.has(node)) return [];
    seen.add(node);
    const inner = [
      ...Object.values((node.properties ?? {}) as Record<string, JsonSchema>),
      ...['items', 'additionalProperties', 'not'].map((k) => node[k]).filter((s) => typeof s === 'object'),
      ...['allOf', 'anyOf', 'oneOf', 'prefixItems'].flatMap((k) => (node[k] ?? []) as JsonSchema[]),
    ] as JsonSchema[];
    const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
    return [...(isObject ? [node] : []), ...inner.flatMap((s) => objectsIn(s, seen))];
  }

  it('refuses the keys on every object of every JSON request body', () => {
    const refusing = JSON.stringify({ not: { enum: [...REFUSED_JSON_KEYS] } });
    // An object with key rules of its own (a record of custom attribute values) refuses them in `allOf`.
    const refuses = (o: JsonSchema) =>
      JSON.stringify(o.propertyNames) === refusing ||
      ((o.allOf ?? []) as JsonSchema[]).some((s) => JSON.stringify(s.propertyNames) === refusing);
    const missing = bodies().flatMap(({ at, schema }) =>
      objectsIn(schema)
        .filter((o) => !refuses(o))
        .map((o) => `${at}: ${JSON.stringify(o).slice(0, 80)}`),
    );
    expect(bodies().length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it('so a validator built from it refuses what the server refuses', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const op = doc.paths['/api/tokens']?.post as OpenApiOperation;
    const schema = op.requestBody?.content['application/json']?.schema as JsonSchema;
    const validate = ajv.compile({ ...schema, components: doc.components });
    expect(validate({ name: 'x' })).toBe(true);
    for (const key of REFUSED_JSON_KEYS) expect(validate(JSON.parse(`{"name":"x","${key}":{}}`)), key).toBe(false);
    expect(op.responses['400']?.description).toMatch(/__proto__.*constructor.*prototype/);
  });
});
