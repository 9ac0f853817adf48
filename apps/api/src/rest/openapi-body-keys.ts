import { ALLOWED_JSON_KEYS_SCHEMA } from '@app/contracts';
import { hasType } from './openapi-schemas.js';
import type { JsonSchema, OpenApiDocument } from './openapi-types.js';

/** The keywords whose values are schemas: one, a list of them, or a map of them. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'unevaluatedProperties'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas'];
const COMPONENT = '#/components/schemas/';

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null;

/**
 * Says, on every object a JSON request body can hold (the components it refers to included),
 * that no key is `__proto__`, `constructor` or `prototype`: the server refuses a body holding
 * one anywhere with 400 before reading it (json-body.ts), by the same list. A component a
 * response shares says it too, which no response contradicts.
 */
export function declareRefusedKeys(doc: OpenApiDocument): void {
  const seen = new Set<JsonSchema>();
  const visit = (schema: unknown): void => {
    if (!isSchema(schema) || seen.has(schema)) return;
    seen.add(schema);
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT)) {
      visit(doc.components.schemas[schema.$ref.slice(COMPONENT.length)]);
    }
    if (hasType(schema, 'object')) {
      const keys = structuredClone(ALLOWED_JSON_KEYS_SCHEMA);
      if (schema.propertyNames === undefined) schema.propertyNames = keys;
      else schema.allOf = [...((schema.allOf as JsonSchema[] | undefined) ?? []), { propertyNames: keys }];
    }
    for (const keyword of ONE) visit(schema[keyword]);
    for (const keyword of LIST) for (const inner of (schema[keyword] as unknown[] | undefined) ?? []) visit(inner);
    for (const keyword of MAP)
      for (const inner of Object.values((schema[keyword] as object | undefined) ?? {})) visit(inner);
  };
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) visit(operation?.requestBody?.content['application/json']?.schema);
  }
}
