import { PLAIN_TEXT_PATTERN, portablePattern } from '@app/contracts';
// ajv is installed with Fastify, not declared by this package: a test-only check, no new dependency.
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type JsonSchema } from '../../src/rest/openapi.js';
import { appRouter } from '../../src/app/app-router.js';

/**
 * The text rule (contracts' text.ts) reaches the OpenAPI document as each free-text field's
 * `pattern`, which a client's validator can apply: ajv, as JSON Schema asks, reads it with the
 * `u` flag, so a surrogate pair is one character. The classes are written as explicit ranges
 * (contracts' portable-pattern.ts), which Python tools read too.
 */
const doc = buildOpenApiDocument(appRouter, { version: '0.0.0' });
const ajv = new Ajv2020({ strict: false, validateFormats: false });
for (const [name, schema] of Object.entries(doc.components.schemas))
  ajv.addSchema(schema, `#/components/schemas/${name}`);

function bodyOf(method: 'post' | 'put', path: string): JsonSchema {
  const op = doc.paths[path]?.[method] as { requestBody?: { content: Record<string, { schema: JsonSchema }> } };
  const schema = op.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} has no JSON body`);
  return schema;
}

function queryParam(path: string, name: string): JsonSchema {
  const op = doc.paths[path]?.get as { parameters: Array<{ name: string; schema: JsonSchema }> };
  const param = op.parameters.find((p) => p.name === name);
  if (!param) throw new Error(`GET ${path} has no parameter ${name}`);
  return param.schema;
}

/** The rule as the document writes it: explicit ranges, which Python's `re` reads too (openapi-python.test.ts). */
const DOCUMENTED = portablePattern(PLAIN_TEXT_PATTERN.source);

const refused = ['\ud800', '\udc00', '\u0000', '\u0085', '\u202e', '\u2066', '\u200b', '\n'];
const accepted = ["Zoë O'Brien", '李小龍', 'Ann 😀', 'family 👨\u200d👩\u200d👧'];

describe('the text rule in the OpenAPI document', () => {
  it.each([
    ['post', '/api/tokens', 'name', { name: 'x' }],
    [
      'post',
      '/api/users',
      'name',
      { name: 'x', email: 'a@example.com', password: 'long-enough-1', password_confirmation: 'long-enough-1' },
    ],
    ['put', '/api/users/{id}', 'name', { name: 'x', email: 'a@example.com', version: 'v' }],
    ['post', '/api/webhooks', 'description', { url: 'https://x.test', description: 'x', events: ['user.created'] }],
  ] as const)('%s %s: %s carries the pattern, and ajv judges as the API does', (method, path, field, valid) => {
    const validate = ajv.compile(bodyOf(method, path));
    expect(validate(valid), ajv.errorsText(validate.errors)).toBe(true);
    for (const c of refused) expect(validate({ ...valid, [field]: `a${c}b` }), JSON.stringify(c)).toBe(false);
    for (const text of accepted) expect(validate({ ...valid, [field]: text }), text).toBe(true);
    expect(JSON.stringify(bodyOf(method, path))).toContain(JSON.stringify(DOCUMENTED));
  });

  it('a list search carries it too', () => {
    expect(JSON.stringify(queryParam('/api/users', 'q'))).toContain(JSON.stringify(DOCUMENTED));
  });
});
