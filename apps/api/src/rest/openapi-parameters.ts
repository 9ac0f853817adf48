import { acceptsNothing, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from '@app/contracts';
import type { JsonSchema, OpenApiParameter } from './openapi-types.js';
import { hasType, propertiesOf, requiredOf } from './openapi-schemas.js';
import type { RestRoute } from './routes.js';
import { inputInQuery } from '../trpc/init.js';

/**
 * The parameters of a REST operation in the OpenAPI document: its path's, its query string's
 * (nested filters as deepObject) and its headers (Idempotency-Key).
 */

const isNestedObject = (schema: JsonSchema) => hasType(schema, 'object') && schema.properties !== undefined;

/**
 * OpenAPI's `deepObject` is one level deep: a generic client writes `filters[created_between]`
 * as `filters[created_between]=from&filters[created_between]=to`. So an object inside one (a
 * range filter) becomes parameters of its own, named as the bridge reads them:
 * `filters[created_between][from]`, `filters[created_between][to]`.
 */
function nestedObjectParameters(name: string, schema: JsonSchema, emptyIsAbsent: boolean): OpenApiParameter[] {
  return Object.entries(propertiesOf(schema))
    .filter(([, inner]) => isNestedObject(inner))
    .flatMap(([key, inner]) =>
      Object.entries(propertiesOf(inner)).map(([bound, boundSchema]) => {
        const param: OpenApiParameter = { name: `${name}[${key}][${bound}]`, in: 'query', schema: boundSchema };
        if (typeof inner.description === 'string') param.description = inner.description;
        if (emptyIsAbsent) param.allowEmptyValue = true;
        return param;
      }),
    );
}

/** The object's schema without the nested objects `nestedObjectParameters` took out. */
function withoutNestedObjects(schema: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(propertiesOf(schema)).filter(([, inner]) => !isNestedObject(inner)),
  );
  return { ...schema, properties };
}

export function parametersOf(
  route: RestRoute,
  input: JsonSchema | null,
  pathParams: string[],
  emptyIsAbsent: boolean,
): OpenApiParameter[] {
  const properties = input ? propertiesOf(input) : {};
  const params: OpenApiParameter[] = pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? (name === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' }),
  }));
  if (route.rest.upload) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      description:
        'A key for this upload (IETF Idempotency-Key draft; a bare key or a Structured Field string, compared exactly, per caller). A retry with the same key, file and options answers the first job instead of starting a second; the key with another file or other options is 422 IDEMPOTENCY_KEY_REUSED; while the first request with it is still being read, 409 IDEMPOTENCY_KEY_IN_USE; longer than 255 characters, 400.',
      schema: { type: 'string', maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN },
    });
  }
  const inQuery = inputInQuery(route.rest);
  if (!input || !inQuery) return params;
  const required = requiredOf(input);
  for (let [name, schema] of Object.entries(properties)) {
    // A key no value satisfies (roles' `append`, with nothing to append) is no parameter to send.
    if (pathParams.includes(name) || acceptsNothing(schema)) continue;
    if (hasType(schema, 'object')) {
      params.push(...nestedObjectParameters(name, schema, emptyIsAbsent));
      schema = withoutNestedObjects(schema);
    }
    const param: OpenApiParameter = { name, in: 'query', schema };
    if (required.includes(name)) param.required = true;
    if (typeof schema.description === 'string') param.description = schema.description;
    // deepObject: `filters[name]=…`, the notation the bridge parses. Lists repeat their name
    // (form + explode, OpenAPI's default and every generator's): `with=roles&with=…`.
    if (hasType(schema, 'object')) Object.assign(param, { style: 'deepObject', explode: true });
    else if (hasType(schema, 'array')) Object.assign(param, { style: 'form', explode: true });
    if (emptyIsAbsent) param.allowEmptyValue = true;
    params.push(param);
  }
  return params;
}
